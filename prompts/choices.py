"""A decision's choices as the seat sees them: who each seat is to this player (itself, a
fellow wolf, the sheriff, a revealed role, a check, a claim), the choices that would work
against its own side, and a wolf's self-explosion."""

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from autowerewolf.rules.decisions import Option
from autowerewolf.rules.roles import GODS, Role, on_wolf_side
from autowerewolf.rules.state import Step
from autowerewolf.rules.steps import steps_where
from autowerewolf.rules.views import SeatView

# Steps whose seat option harms that seat, helps it or checks it (rules/steps.py).
HARM_STEPS = steps_where(lambda entry: entry.effect == "harm")
HELP_STEPS = steps_where(lambda entry: entry.effect == "help")
CHECK_STEPS = steps_where(lambda entry: entry.effect == "check")
# Steps that kill on the good side's own judgement, with no vote to correct a guess.
EVIDENCE_STEPS = steps_where(lambda entry: entry.on_evidence)


@dataclass(frozen=True)
class Known:
    """What the seat knows about the others, for labelling its options."""

    checks: Mapping[str, str] = field(default_factory=dict)  # the Seer's results: wolf/good
    claims: Mapping[str, str] = field(default_factory=dict)  # the latest claimed role per seat
    saved: frozenset[str] = frozenset()  # the Witch's cures: seats the wolves attacked
    named_wolves: Mapping[str, Sequence[str]] = field(default_factory=dict)  # seat -> reporters
    wolf_allies: Mapping[str, str] = field(default_factory=dict)  # seat -> exposed wolf it backed


_SEAT_ID = re.compile(r"\bP\d{2}\b")


def claims_your_role(view: SeatView, known: Known, seat: str) -> bool:
    """Whether `seat` claims the power role this seat holds. A board deals each power role
    once, so the claim is a lie, and good seats' speech acts claim only their own role
    (speech_acts.py): over 18 embedded-model games all 57 such claims were wolves'."""
    return view.role in GODS and seat != view.seat and known.claims.get(seat) == view.role.value


def _tags(view: SeatView, known: Known) -> dict[str, list[str]]:
    tags: dict[str, list[str]] = {}
    for player in view.players:
        seat, own = player.seat, []
        if player.seat == view.seat:
            own.append("you")
        elif player.seat in view.teammates:
            own.append("fellow wolf")
        if player.sheriff:
            own.append("sheriff")
        if player.revealed_role is not None:
            own.append(f"revealed {player.revealed_role.value}")
        if seat in known.checks:
            own.append(f"you checked: {known.checks[seat]}")
        if seat in known.saved:
            own.append("you saved them from the wolves")
        if claims_your_role(view, known, seat):
            own.append(f"claims {known.claims[seat]}, your own role: a lie")
        elif seat in known.claims and seat != view.seat:
            own.append(f"claims {known.claims[seat]}")
        reporters = known.named_wolves.get(seat)
        if reporters:
            said = "reported a check" if len(reporters) == 1 else "reported checks"
            own.append(f"{' and '.join(reporters)} {said} that found them a wolf")
        if seat in known.wolf_allies:
            own.append(f"sided with exposed wolf {known.wolf_allies[seat]}")
        tags[seat] = own
    return tags


def option_labels(view: SeatView, known: Known | None = None) -> dict[str, str]:
    """Names for seat options (a human seat's buttons): the seat's name, then who it is to
    this player (itself, a fellow wolf, the sheriff, a revealed role, a check, a claim)."""
    tags = _tags(view, known or Known())
    return {seat: ", ".join([view_name(view, seat), *own]) for seat, own in tags.items()}


def seat_against_own_side(view: SeatView, known: Known, step: str, seat: str) -> str | None:
    """Why choosing `seat` would work against the seat's own side, if it would."""
    revealed = {p.seat: p.revealed_role for p in view.players}
    wolf = view.camp.value == "wolf"
    if step in HARM_STEPS:
        if seat == view.seat:
            return "yourself"
        if wolf and seat in view.teammates:
            return "your fellow wolves"
        if not wolf and known.checks.get(seat) == "good":
            return "players you checked as good"
        if not wolf and seat in known.saved:
            return "the player you saved from the wolves"
        role = revealed.get(seat)
        if not wolf and role is not None and not on_wolf_side(role):
            return "publicly revealed good players"
    if step in CHECK_STEPS and (seat in known.checks or revealed.get(seat) is not None):
        return "players whose side you already know"
    shown = revealed.get(seat)
    known_wolf = known.checks.get(seat) == "wolf" or (shown is not None and on_wolf_side(shown))
    if step in HELP_STEPS and not wolf and known_wolf:
        return "known wolves"
    return None


def has_evidence(view: SeatView, known: Known, seat: str) -> bool:
    """Whether what the seat has seen points at `seat` as a wolf firmly enough to kill on.

    One report of a check is not enough: wolves claim the Seer too. On the embedded model
    all four reports of a wolf in five games were a wolf's bluff or a villager's copy of
    one, each naming the real Seer, and a Witch poisoned her on one. Two seats' reports
    are: if either is the Seer, the seat is a wolf. So is a claim of the seat's own power
    role."""
    revealed = next(p.revealed_role for p in view.players if p.seat == seat)
    return (
        len(known.named_wolves.get(seat, ())) >= 2
        or seat in known.wolf_allies
        or known.checks.get(seat) == "wolf"
        or (revealed is not None and on_wolf_side(revealed))
        or claims_your_role(view, known, seat)
    )


def kills_without_evidence(view: SeatView, known: Known, step: str, option: str) -> bool:
    """Whether `option` is a good seat's poison or shot at a player nothing it has seen
    points at (`has_evidence`): most players are good, so such a guess usually kills a
    friend. Over the served model's games every poison on a good player was one (5 of 6
    such poisons hit a good player; all 11 poisons on a seat with evidence hit a wolf)."""
    return (
        step in EVIDENCE_STEPS
        and view.camp.value != "wolf"
        and option in {p.seat for p in view.players}
        and not has_evidence(view, known, option)
    )


def choices_text(view: SeatView, step: str, known: Known) -> str:
    """The legal choices with who each seat is to this player. Choices that work against the
    player's own side are described, not listed, so that the last seats the model reads
    before answering are sensible ones (a small model tends to copy the last seat it read);
    they stay legal. So are a good seat's poison and shot targets that nothing points at: the
    embedded model poisoned a seat on Night 1 from a list of every seat. A self-explosion is
    not among them (`explosion_note`)."""
    tags = _tags(view, known)
    listed: list[str] = []
    against: list[str] = []
    unsupported = 0
    for option in view.options:
        reason = seat_against_own_side(view, known, step, option) if option in tags else None
        if reason is not None:
            against.append(reason)
        elif option in _NOTED:
            continue
        elif kills_without_evidence(view, known, step, option):
            unsupported += 1
        elif tags.get(option):
            listed.append(f"{option} ({', '.join(tags[option])})")
        else:
            listed.append(option)
    text = f"Choices: {', '.join(listed)}."
    if unsupported:
        others = "the other player" if unsupported == 1 else f"the {unsupported} other players"
        text += (
            f" Also legal: {others}, though nothing you have seen is firm evidence of a wolf"
            " (one player's reported check is not: wolves claim the Seer too)."
        )
    if against:
        text += f" Also legal but against your own side: {', '.join(dict.fromkeys(against))}."
    return text


def explosion_note(view: SeatView) -> str | None:
    """A wolf's self-explosion, when it is legal, told before the question rather than among
    the choices: named last, a small model chose it at nearly every speech."""
    if "explode" not in view.options:
        return None
    king = (
        " As the White Wolf King you then name one player to take with you."
        if view.role is Role.WHITE_WOLF_KING
        else ""
    )
    return (
        "As a werewolf you may also answer 'explode' instead: you die at once, revealed as a "
        "werewolf, and the rest of the day (speeches and vote) is cancelled. It costs your team "
        "a player, so it is only for a last resort, such as when you or a fellow wolf is about "
        "to be exiled." + king
    )


def duel_note(view: SeatView) -> str | None:
    """The Knight's duel, when it is open to him, told before the question as the
    self-explosion is (`explosion_note`)."""
    if "duel" not in view.options:
        return None
    return (
        "As the Knight you may also answer 'duel' instead of speaking, once per game: you then "
        "name a living player; a werewolf dies and night falls at once, a good player survives "
        "and you die. Keep it for a player the evidence names as a wolf."
    )


# Options told in a note before the question rather than among the choices.
_NOTED = frozenset({"explode", "duel"})


def view_name(view: SeatView, seat: str) -> str:
    return next(p.name for p in view.players if p.seat == seat)


def lists_seats(choices: str) -> bool:
    """Whether a question's choices (choices_text) list seats, each with its labels."""
    listed = choices.removeprefix("Choices: ").split(". Also legal", 1)[0]
    return choices.startswith("Choices: ") and _SEAT_ID.search(listed) is not None


# A line for a person on each word an option can be (rules/steps.py `words`), by step where
# a word means something else there: a human seat's option help (web/humans.py).
_WORD_HELP: dict[str, str] = {
    Option.ABSTAIN: "vote for nobody this round",
    Option.SAVE: "use your cure: tonight's victim lives",
    Option.RUN: "stand for sheriff: the sheriff's exile vote counts more and the sheriff "
    "orders the day's speeches",
    Option.PASS: "do not stand for sheriff",
    Option.STAY: "stay in the sheriff race",
    Option.WITHDRAW: "leave the sheriff race for good; you cannot vote in it either",
    Option.SPEAK: "say your speech (write it in the box)",
    Option.EXPLODE: "reveal yourself as a wolf: you die at once, the rest of the day is "
    "cancelled and night falls",
    Option.DUEL: "duel a player now: if they are a wolf they die and night falls, if not you die",
    Option.TEAR: "tear up the badge: nobody is sheriff from now on",
    Option.CLOCKWISE: "speeches go by rising seat numbers from the seat after the sheriff",
    Option.COUNTERCLOCKWISE: "speeches go by falling seat numbers from the seat before the sheriff",
    "0": "I would rather listen",
    "1": "I have general thoughts",
    "2": "I have something specific",
    "3": "I have something urgent",
    "4": "I was addressed and must answer",
}
_NONE_HELP: dict[str, str] = {
    Step.WOLVES: "kill nobody tonight",
    Step.WITCH_CURE: "keep your cure",
    Step.WITCH_POISON: "poison nobody tonight",
    Step.GUARD: "protect nobody tonight",
    Step.ELECTION_WITHDRAW: "you are not a candidate: go on",
    Step.HUNTER_SHOT: "shoot nobody",
    Step.WOLF_KING_TAKE: "take nobody with you",
}


def option_help(step: str, option: str) -> str:
    """What choosing a word option does, in a line for a person; "" for a seat id.
    KeyError for a word no line explains (tests walk every step's words)."""
    if _SEAT_ID.fullmatch(option):
        return ""
    if option == Option.NONE:
        return _NONE_HELP[step]
    return _WORD_HELP[option]
