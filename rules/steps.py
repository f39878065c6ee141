"""Every step of the game, declared once.

A step's entry (step_spec.py) says what kind of step it is, who decides and among which
options, how its answers are resolved, where the game may go next, whether it takes a
speech or a message, and which prompt asks it. The engine (`engine.py`), the graph's nodes
and edges, the players and the prompts all read this table, so a new step or role is one
entry here plus its rule functions. The shape follows boardgame.io's phase declarations
(`{name: {next, onBegin, moves}}`) and OpenSpiel's game-type declaration.
"""

from collections.abc import Callable

from autowerewolf.rules import chain, day, discussion, knight, night, sheriff, speeches, wolf_king
from autowerewolf.rules.decisions import Option
from autowerewolf.rules.keys import BadKey, DecisionKey
from autowerewolf.rules.roles import Role
from autowerewolf.rules.state import Step
from autowerewolf.rules.step_spec import Effect, StepKind, StepSpec, TextKind, automatic

_NIGHT_TAIL = (Step.SEER, Step.WITCH_CURE, Step.WITCH_POISON, Step.GUARD, Step.DAWN)
# After a batch of deaths the chain may run, the day go on, night fall or the game end.
_AFTER_DEATHS = (
    Step.HUNTER_SHOT,
    Step.BADGE,
    Step.LAST_WORDS,
    Step.SHERIFF_DIRECTION,
    Step.DISCUSSION,
    Step.DISCUSSION_BID,
    Step.ANNOUNCE,
    Step.WOLVES,
    Step.GAME_OVER,
    # a Knight's lost duel on the day's last speech: the exile vote follows his chain
    Step.EXILE_VOTE,
    Step.EXILE_ROLL_CALL,
)
# A wolf explodes; a White Wolf King first names whom he takes along.
_EXPLOSION_NEXT = (Step.SELF_EXPLOSION, Step.WOLF_KING_TAKE)
_SPEECH_NEXT = _EXPLOSION_NEXT

STEPS: dict[str, StepSpec] = {
    Step.WOLVES: StepSpec(
        StepKind.NIGHT,
        next=(Step.WOLVES, *_NIGHT_TAIL),
        options=night.wolves_options,
        in_turn=True,
        words=(Option.NONE.value,),
        names_seats=True,
        resolve=night.apply_wolves,
        then=Step.SEER,
        text="message",
        prompt="wolves",
        rule="§2",
        effect="harm",
        power=True,
        role=Role.WEREWOLF,
    ),
    Step.SEER: StepSpec(
        StepKind.NIGHT,
        next=_NIGHT_TAIL[1:],
        options=night.seer_options,
        names_seats=True,
        resolve=night.apply_seer,
        then=Step.WITCH_CURE,
        prompt="seer",
        rule="§2",
        effect="check",
        power=True,
        role=Role.SEER,
    ),
    Step.WITCH_CURE: StepSpec(
        StepKind.NIGHT,
        next=_NIGHT_TAIL[2:],
        options=night.witch_cure_options,
        words=(Option.SAVE.value, Option.NONE.value),
        resolve=night.apply_witch_cure,
        then=Step.WITCH_POISON,
        prompt="witch_cure",
        rule="§2",
        power=True,
        role=Role.WITCH,
    ),
    Step.WITCH_POISON: StepSpec(
        StepKind.NIGHT,
        next=_NIGHT_TAIL[3:],
        options=night.witch_poison_options,
        words=(Option.NONE.value,),
        names_seats=True,
        resolve=night.apply_witch_poison,
        then=Step.GUARD,
        prompt="witch_poison",
        rule="§2",
        effect="harm",
        power=True,
        role=Role.WITCH,
    ),
    Step.GUARD: StepSpec(
        StepKind.NIGHT,
        next=(Step.DAWN,),
        options=night.guard_options,
        words=(Option.NONE.value,),
        names_seats=True,
        resolve=night.apply_guard,
        then=Step.DAWN,
        prompt="guard",
        rule="§2",
        effect="help",
        power=True,
        role=Role.GUARD,
    ),
    Step.DAWN: StepSpec(
        StepKind.AUTOMATIC,
        next=(Step.ELECTION_SIGNUP, Step.ELECTION_SPEECH, Step.ANNOUNCE, Step.GAME_OVER),
        resolve=automatic(night.resolve_dawn),
        then=Step.ELECTION_SIGNUP,
        rule="§2",
    ),
    Step.ELECTION_SIGNUP: StepSpec(
        StepKind.DAY,
        next=(Step.ELECTION_SPEECH, Step.ANNOUNCE, *_EXPLOSION_NEXT),
        options=sheriff.signup_options,
        words=(Option.RUN.value, Option.PASS.value, Option.EXPLODE.value),
        round_of=sheriff.election_round,
        resolve=sheriff.apply_signup,
        prompt="election_signup",
        rule="§3",
        public=True,
    ),
    Step.ELECTION_SPEECH: StepSpec(
        StepKind.DAY,
        next=(Step.ELECTION_SPEECH, Step.ELECTION_WITHDRAW, *_SPEECH_NEXT),
        options=speeches.speech_options,
        in_turn=True,
        words=(Option.SPEAK.value, Option.EXPLODE.value),
        resolve=speeches.speech_step("campaign"),
        then=Step.ELECTION_WITHDRAW,
        text="speech",
        prompt="election_speech",
        rule="§3",
        public=True,
    ),
    Step.ELECTION_WITHDRAW: StepSpec(
        StepKind.DAY,
        next=(Step.ELECTION_VOTE, Step.ANNOUNCE, *_EXPLOSION_NEXT),
        options=sheriff.withdraw_options,
        words=(Option.STAY.value, Option.WITHDRAW.value, Option.NONE.value, Option.EXPLODE.value),
        round_of=sheriff.election_round,
        resolve=sheriff.apply_withdraw,
        then=Step.ELECTION_VOTE,
        prompt="election_withdraw",
        rule="§3",
        public=True,
    ),
    Step.ELECTION_VOTE: StepSpec(
        StepKind.DAY,
        next=(Step.ELECTION_PK_SPEECH, Step.ANNOUNCE),
        options=sheriff.election_vote_options,
        words=(Option.ABSTAIN.value,),
        names_seats=True,
        round_of=sheriff.election_round,
        resolve=sheriff.apply_election_vote,
        prompt="election_vote",
        rule="§3",
        public=True,
        effect="help",
    ),
    Step.ELECTION_PK_SPEECH: StepSpec(
        StepKind.DAY,
        next=(Step.ELECTION_PK_SPEECH, Step.ELECTION_WITHDRAW, *_SPEECH_NEXT),
        options=speeches.speech_options,
        in_turn=True,
        words=(Option.SPEAK.value, Option.EXPLODE.value),
        resolve=speeches.speech_step("election_pk"),
        then=Step.ELECTION_WITHDRAW,
        text="speech",
        prompt="election_pk_speech",
        rule="§3",
        public=True,
    ),
    Step.ANNOUNCE: StepSpec(
        StepKind.AUTOMATIC,
        next=_AFTER_DEATHS,
        resolve=automatic(day.apply_announce),
        rule="§5",
    ),
    Step.HUNTER_SHOT: StepSpec(
        StepKind.CHAIN,
        next=_AFTER_DEATHS,
        options=chain.hunter_options,
        in_turn=True,
        words=(Option.NONE.value,),
        names_seats=True,
        resolve=chain.apply_hunter_shot,
        prompt="hunter_shot",
        rule="§7",
        effect="harm",
        power=True,
        role=Role.HUNTER,
    ),
    Step.BADGE: StepSpec(
        StepKind.CHAIN,
        next=_AFTER_DEATHS,
        options=sheriff.badge_options,
        in_turn=True,
        words=(Option.TEAR.value,),
        names_seats=True,
        resolve=sheriff.apply_badge,
        prompt="badge",
        rule="§4",
        public=True,
        effect="help",
        power=True,
    ),
    Step.LAST_WORDS: StepSpec(
        StepKind.CHAIN,
        next=_AFTER_DEATHS,
        options=chain.last_words_options,
        in_turn=True,
        words=(Option.SPEAK.value,),
        resolve=chain.apply_last_words,
        text="speech",
        prompt="last_words",
        rule="§5",
        public=True,
    ),
    Step.SHERIFF_DIRECTION: StepSpec(
        StepKind.DAY,
        next=(Step.DISCUSSION, Step.DISCUSSION_BID),
        options=sheriff.direction_options,
        words=(Option.CLOCKWISE.value, Option.COUNTERCLOCKWISE.value),
        resolve=sheriff.apply_direction,
        then=Step.DISCUSSION,
        prompt="sheriff_direction",
        rule="§4",
        public=True,
    ),
    Step.DISCUSSION_BID: StepSpec(
        StepKind.DAY,
        next=(Step.DISCUSSION,),
        options=discussion.bid_options,
        words=discussion.BID_OPTIONS,
        round_of=discussion.bid_round,
        resolve=discussion.apply_bids,
        prompt="discussion_bid",
        rule="§6",
    ),
    Step.DISCUSSION: StepSpec(
        StepKind.DAY,
        next=(
            Step.DISCUSSION,
            Step.DISCUSSION_BID,
            Step.EXILE_VOTE,
            Step.EXILE_ROLL_CALL,
            Step.DUEL,
            *_SPEECH_NEXT,
        ),
        options=knight.discussion_options,
        in_turn=True,
        words=(Option.SPEAK.value, Option.EXPLODE.value, Option.DUEL.value),
        turn_of=discussion.speech_turn,
        resolve=discussion.apply_speech,
        text="speech",
        prompt="discussion",
        rule="§6",
        public=True,
    ),
    Step.EXILE_VOTE: StepSpec(
        StepKind.DAY,
        next=(*_AFTER_DEATHS, Step.EXILE_PK_SPEECH),
        options=day.exile_vote_options,
        words=(Option.ABSTAIN.value,),
        names_seats=True,
        round_of=day.exile_round,
        resolve=day.apply_exile_vote,
        prompt="exile_vote",
        rule="§6",
        public=True,
        effect="harm",
    ),
    Step.EXILE_ROLL_CALL: StepSpec(
        StepKind.DAY,
        next=(Step.EXILE_ROLL_CALL, *_AFTER_DEATHS),
        options=day.roll_call_options,
        in_turn=True,
        words=(Option.ABSTAIN.value,),
        names_seats=True,
        resolve=day.apply_roll_call,
        prompt="exile_roll_call",
        rule="§6",
        public=True,
        effect="harm",
    ),
    Step.EXILE_PK_SPEECH: StepSpec(
        StepKind.DAY,
        next=(Step.EXILE_PK_SPEECH, Step.EXILE_VOTE, *_SPEECH_NEXT),
        options=speeches.speech_options,
        in_turn=True,
        words=(Option.SPEAK.value, Option.EXPLODE.value),
        resolve=speeches.speech_step("exile_pk"),
        then=Step.EXILE_VOTE,
        text="speech",
        prompt="exile_pk_speech",
        rule="§6",
        public=True,
    ),
    Step.SELF_EXPLOSION: StepSpec(
        StepKind.AUTOMATIC,
        next=_AFTER_DEATHS,
        resolve=automatic(speeches.resolve_self_explosion),
        rule="§6",
    ),
    Step.DUEL: StepSpec(
        StepKind.DAY,
        next=_AFTER_DEATHS,
        options=knight.duel_options,
        in_turn=True,
        names_seats=True,
        resolve=knight.apply_duel,
        prompt="duel",
        rule="§11",
        public=True,
        effect="harm",
        power=True,
        role=Role.KNIGHT,
    ),
    Step.WOLF_KING_TAKE: StepSpec(
        StepKind.DAY,
        next=_AFTER_DEATHS,
        options=wolf_king.take_options,
        in_turn=True,
        words=(Option.NONE.value,),
        names_seats=True,
        resolve=wolf_king.apply_take,
        prompt="wolf_king_take",
        rule="§12",
        public=True,
        effect="harm",
        power=True,
        role=Role.WHITE_WOLF_KING,
    ),
    Step.GAME_OVER: StepSpec(StepKind.END, next=(), resolve=None, rule="§8"),
}
FIRST_STEP = Step.WOLVES  # the game opens with Night 1 (RULES §1)


class UnknownStep(ValueError):
    pass


def steps_where(test: Callable[[StepSpec], bool]) -> frozenset[str]:
    """The names of the steps whose entry passes `test`: what other modules' step sets
    derive from, so a new step is placed by its entry alone."""
    return frozenset(name for name, entry in STEPS.items() if test(entry))


def spec(step: str) -> StepSpec:
    try:
        return STEPS[step]
    except KeyError:
        raise UnknownStep(f"no step {step!r} in the step table") from None


def takes_text(step: str) -> TextKind | None:
    """The free text an answer at `step` carries: a speech, a wolf message, or none."""
    found = STEPS.get(step)
    return found.text if found is not None else None


def effect_of(step: str) -> Effect | None:
    """What choosing a seat at `step` does to it (harm, help, check), or None: no seat is
    chosen, or the step is not in the table (a measurement probe)."""
    found = STEPS.get(step)
    return found.effect if found is not None else None


def check_key(key: DecisionKey) -> DecisionKey:
    """`key` if it names a decision of the table in the shape its step is keyed by (keys.py),
    else BadKey saying what is wrong."""
    found = STEPS.get(key.step)
    if found is None or found.options is None:
        raise BadKey(f"{key}: {key.step!r} is not a step that asks a decision")
    if key.night != (found.kind is StepKind.NIGHT):
        phase = "a night (n<night>:...)" if found.kind is StepKind.NIGHT else "a day (d<day>:...)"
        raise BadKey(f"{key}: {key.step} is {phase} decision")
    if found.simultaneous and key.round is None:
        raise BadKey(f"{key}: {key.step} is simultaneous: its key names the round (:r<round>)")
    if not found.simultaneous and key.round is not None:
        raise BadKey(f"{key}: {key.step} is not simultaneous: its key names no round")
    if key.turn is not None and found.turn_of is None:
        raise BadKey(f"{key}: {key.step} is taken once a day: its key names no turn")
    if found.in_turn != (key.seat is not None):
        named = "names the seat whose turn it is" if found.in_turn else "names no seat"
        raise BadKey(f"{key}: the key of {key.step} {named}")
    return key
