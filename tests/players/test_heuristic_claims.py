"""Seats that hear a human (prompts/claims.py, players/heuristic.py): one reader of role
claims, check results, accusations and defences in a player's own words, for the heuristic
seats and the LLM seats' memory alike; heuristic decisions that follow what was said; and
heuristic speech that says what the seat believes, in phrasings drawn from its seed."""

import pytest

from autowerewolf.players.base import DecisionRequest
from autowerewolf.players.heuristic import HeuristicPlayer, read_view
from autowerewolf.prompts.claims import PHRASES, read_speech
from autowerewolf.prompts.recall import remember
from autowerewolf.rules.config import make_config
from autowerewolf.rules.decisions import Option
from autowerewolf.rules.engine import new_game
from autowerewolf.rules.events import Audience, Event, EventKind
from autowerewolf.rules.roles import Camp, Role, on_wolf_side
from autowerewolf.rules.state import Step
from autowerewolf.rules.views import SeatView, seat_view
from tests.players.test_heuristic import play

SPEAKER = "P01"
# sentence -> (claimed roles, named wolves, named good, accused, defends); "{P04}" is P04's
# display name at the table.
HEARD: list[
    tuple[str, tuple[str, ...], tuple[str, ...], tuple[str, ...], tuple[str, ...], bool]
] = [
    ("I'm the real seer, P04 is a wolf", ("seer",), ("P04",), (), (), False),
    ("checked P03: good", (), (), ("P03",), (), False),
    ("trust me, I'm the witch", ("witch",), (), (), (), True),
    ("I am the seer. P04 is a wolf.", ("seer",), ("P04",), (), (), False),
    ("my check on P05 came back wolf", (), ("P05",), (), (), False),
    ("I checked P05 last night and she is a werewolf.", (), ("P05",), (), (), False),
    ("I'm the seer: P03 is clean and P06 is innocent.", ("seer",), (), ("P03", "P06"), (), False),
    ("As the Seer, I can tell you P03 is not a wolf.", ("seer",), (), ("P03",), (), False),
    ("SEER HERE... i am the seer, p07 = wolf", ("seer",), ("P07",), (), (), False),
    ("I'm the seer and {P04} is a wolf.", ("seer",), ("P04",), (), (), False),
    ("I am actually the Guard, so keep me alive.", ("guard",), (), (), (), False),
    ("I'm just a simple villager.", ("villager",), (), (), (), False),
    ("I suspect P07.", (), (), (), ("P07",), False),
    ("P07 is lying, don't listen to him.", (), (), (), ("P07",), False),
    ("vote P07 out", (), (), (), ("P07",), False),
    ("Let's vote out {P04}, they dodge every question.", (), (), (), ("P04",), False),
    ("P06 is a wolf, I can feel it.", (), (), (), ("P06",), False),
    ("I don't trust P08 at all.", (), (), (), ("P08",), False),
    ("I'm not a wolf, I swear.", (), (), (), (), True),
    ("I am innocent, believe me.", (), (), (), (), True),
    # Neither hedged words nor a report of a ballot or of another's check are said.
    ("I don't think P04 is a wolf.", (), (), (), (), False),
    ("I voted to exile P03 on day 1.", (), (), (), (), False),
    ("P09 is the Seer; his check found P03 a wolf.", (), (), (), (), False),
    ("I am not the seer.", (), (), (), (), False),
]


def _village_view(text: str | None, seat_role: Role = Role.VILLAGER) -> SeatView:
    """A 12-A table on Day 1 seen by a seat of `seat_role`, after one speech of SPEAKER
    (a villager) saying `text`."""
    for seed in range(50):
        state, events = new_game(make_config("12-A", seed=seed))
        roles = {s.id: s.role for s in state.seats}
        seat = next((s for s, r in roles.items() if r is seat_role and s != SPEAKER), None)
        if roles[SPEAKER] is Role.VILLAGER and seat is not None:
            break
    assert seat is not None
    view = seat_view(state, events, seat)
    return view if text is None else _heard(view, SPEAKER, text)


def _heard(view: SeatView, speaker: str, text: str) -> SeatView:
    """`view` after `speaker` said `text` in the Day-1 discussion."""
    said = Event(kind=EventKind.SPEECH, day=1, phase="day", audience=Audience.PUBLIC,
                 actor=speaker, text=text, value="discussion")  # fmt: skip
    return view.model_copy(update={"events": (*view.events, said)})


def _names(view: SeatView) -> dict[str, str]:
    return {p.seat: p.name for p in view.players}


@pytest.mark.parametrize(("said", "roles", "wolves", "good", "accused", "defends"), HEARD)
def test_the_heuristic_and_the_memory_understand_a_human_style_sentence(
    said: str,
    roles: tuple[str, ...],
    wolves: tuple[str, ...],
    good: tuple[str, ...],
    accused: tuple[str, ...],
    defends: bool,
) -> None:
    text = said.format(**_names(_village_view(None)))
    view = _village_view(text)
    reading = read_speech(text, SPEAKER, _names(view))
    assert reading.roles == roles
    assert [s for s, c in reading.checks if c is Camp.WOLF] == list(wolves)
    assert [s for s, c in reading.checks if c is Camp.GOOD] == list(good)
    assert reading.accused == accused
    assert reading.defends is defends
    # The heuristic seat hears the same: a lone Seer claimant's results, every claim, the
    # accusation ...
    beliefs = read_view(view)
    claims_seer = "seer" in roles or bool(wolves or good)
    assert beliefs.seer_claims == ([SPEAKER] if claims_seer else [])
    assert (beliefs.named_wolves, beliefs.named_good) == (list(wolves), list(good))
    assert {r for r, seats in beliefs.claimants.items() if SPEAKER in seats} == {
        *roles,
        *(["seer"] if claims_seer else []),
    }
    assert beliefs.accused == ({SPEAKER: accused[-1]} if accused else {})
    # ... and so does the LLM seats' memory.
    ledger = remember(view).ledger
    assert {s: f.value for s, f in ledger.claims.items()} == ({SPEAKER: roles[0]} if roles else {})
    assert ledger.named_wolves == {w: [SPEAKER] for w in wolves}
    assert ledger.accused == beliefs.accused


def _vote(view: SeatView, seed: int) -> str:
    living = [p.seat for p in view.players if p.alive and p.seat != view.seat]
    asked = view.model_copy(
        update={
            "step": Step.EXILE_VOTE,
            "options": (*living, Option.ABSTAIN.value),
            "decision_key": "d1:exile_vote",
        }
    )
    answer = HeuristicPlayer().decide(DecisionRequest(view=asked, seed=seed, history=()))
    return answer.action.option


SEEDS = range(12)


def test_a_villager_votes_the_wolf_a_lone_free_worded_seer_claim_named() -> None:
    """Without the claim the villager's vote is a seeded guess; with "I'm the real seer,
    Pxx is a wolf" in a person's words it is Pxx, every time."""
    quiet = _village_view(None)
    target = next(p.seat for p in quiet.players if p.seat not in (quiet.seat, SPEAKER))
    guesses = {_vote(quiet, seed) for seed in SEEDS}
    assert len(guesses) > 1
    told = _village_view(f"Honestly? I'm the real seer, and {target} is a wolf. Vote them out.")
    assert {_vote(told, seed) for seed in SEEDS} == {target}


def test_a_power_claim_is_believed_unless_counter_claimed_and_ones_own_role_never() -> None:
    """A Witch claim keeps the claimant out of a villager's vote; two Witch claims cancel
    each other; the Witch herself votes out a seat that claims her role."""
    alone = _village_view("trust me, I'm the witch")
    assert SPEAKER not in {_vote(alone, seed) for seed in SEEDS}
    second = next(p.seat for p in alone.players if p.seat not in (alone.seat, SPEAKER))
    countered = _heard(alone, second, "No, I am the Witch.")
    assert read_view(countered).claimants["witch"] == [SPEAKER, second]
    assert SPEAKER in {_vote(countered, seed) for seed in range(40)}
    witch = _village_view("trust me, I'm the witch", seat_role=Role.WITCH)
    assert {_vote(witch, seed) for seed in SEEDS} == {SPEAKER}


def test_a_villager_suspects_a_seat_that_accuses_the_seer_it_believes() -> None:
    claim = _village_view("I'm the real seer, and P12 is clean.")
    accuser = next(p.seat for p in claim.players if p.seat not in (claim.seat, SPEAKER, "P12"))
    heard = _heard(claim, accuser, f"{SPEAKER} is lying, vote them out!")
    assert {_vote(heard, seed) for seed in SEEDS} == {accuser}


def _speech(view: SeatView, seed: int) -> str:
    asked = view.model_copy(
        update={
            "step": Step.DISCUSSION,
            "options": (Option.SPEAK.value,),
            "decision_key": f"d1:discussion:{view.seat}",
        }
    )
    answer = HeuristicPlayer().decide(DecisionRequest(view=asked, seed=seed, history=()))
    return answer.action.text


def test_speech_varies_with_the_seed_and_replays_alike_for_the_same_seed() -> None:
    view = _village_view(None)
    said = [_speech(view, seed) for seed in range(20)]
    assert len(set(said)) >= 3
    assert said == [_speech(view, seed) for seed in range(20)]
    assert set(said) <= set(PHRASES["no_read"])  # nothing heard, nothing claimed


def test_a_villager_says_whom_it_believes_and_whom_it_suspects() -> None:
    quiet = _village_view(None)
    wolf, good, accuser = [p.seat for p in quiet.players if p.seat not in (quiet.seat, SPEAKER)][:3]
    view = _village_view(f"I'm the real seer: {wolf} is a wolf, {good} is good.")
    view = _heard(view, accuser, f"I suspect {good}.")
    for seed in SEEDS:
        text = _speech(view, seed)
        heard = read_speech(text, view.seat, _names(view))
        assert heard.accused == (wolf, accuser), text  # the wolf it believes in, the suspect
        assert heard.roles == () and heard.checks == (), text  # and no claim of its own
        assert SPEAKER in text and good in text, text  # whom it trusts


@pytest.mark.parametrize(("board", "seed"), [("12-A", 3), ("12-K", 1), ("9-standard", 2)])
def test_heuristic_speech_reads_back_true_to_its_side(board: str, seed: int) -> None:
    """Read with the same reader: the Seer's claim gives her own checks; a good seat never
    claims a role it does not hold; a wolf never names a packmate a wolf."""
    game, records = play(board, seed)
    roles = {s.id: s.role for s in game.seats}
    wolves = {s for s, r in roles.items() if on_wolf_side(r)}
    names = {s.id: s.name for s in game.seats}
    speeches = [r for r in records if r.text and r.option == Option.SPEAK.value]
    assert len({r.text for r in speeches}) > 10
    for record in speeches:
        heard = read_speech(record.text, record.seat, names)
        role = roles[record.seat]
        named = {s for s, c in heard.checks if c is Camp.WOLF} | set(heard.accused)
        if on_wolf_side(role):
            assert not named & wolves, record
            assert heard.roles == (), record
        else:
            assert set(heard.roles) <= {role.value}, record
        if heard.claims_seer:
            assert role is Role.SEER, record
            assert heard.checks and all(on_wolf_side(roles[s]) is (c is Camp.WOLF)
                                        for s, c in heard.checks), record  # fmt: skip


WHISPERS = ("whisper_seer", "whisper_target")


def test_a_heuristic_wolfs_whisper_names_its_kill_in_varied_words() -> None:
    """The pack's whisper says whom the wolf names tonight (the Seer claimant when there is
    one), phrased from the seed; a wolf that passes says nothing."""
    whispers = []
    for board, seed in [("12-A", 1), ("12-A", 2), ("9-standard", 3), ("8-arena", 4)]:
        _, records = play(board, seed)
        for record in records:
            if record.step != Step.WOLVES:
                continue
            if record.option == Option.NONE.value:
                assert record.text == "", record
                continue
            assert record.option in record.text, record
            said = {p.format(seat=record.option) for k in WHISPERS for p in PHRASES[k]}
            assert record.text in said, record
            whispers.append(record.text.replace(record.option, "{seat}"))
    assert len(set(whispers)) >= 3
