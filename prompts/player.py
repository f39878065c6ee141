"""The LLM player's words: its fixed system prompt, the decision it is asked, the facts it
noted, and the re-prompt after an invalid answer.

Long texts live beside this module (rules.md, roles.yaml, decisions.yaml) so they can be
edited without touching code.
"""

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from importlib.resources import files

import yaml

from autowerewolf.rules.events import EventKind
from autowerewolf.rules.roles import Role
from autowerewolf.rules.steps import STEPS, TextKind
from autowerewolf.rules.variants import DiscussionProtocol, WinMode
from autowerewolf.rules.views import SeatView, TableRules

_WOLF_WIN = {
    WinMode.SIDE: "The werewolves win when every villager or every god (special role) is dead.",
    WinMode.CITY: "The werewolves win when every good player is dead.",
    WinMode.PARITY: "The werewolves win when they equal or outnumber the good players.",
}
_DISCUSSION = {
    DiscussionProtocol.ROUND_ROBIN: "Each day every living player speaks once",
    DiscussionProtocol.BIDDING: (
        "Each day, before every speech, the players bid 0-4 in private to speak next and the "
        "highest bid speaks ({turns}, at most {cap} per player; the sheriff does not bid and "
        "speaks last)"
    ),
    DiscussionProtocol.BID_ONCE: (
        "Each day every living player bids 0-4 once in private, and the players speak in the "
        "order of their bids, highest first ({turns}; the sheriff does not bid and speaks last)"
    ),
}
_NIGHT_ROLES = {
    Role.SEER: "the Seer checks whether one player is a wolf",
    Role.WITCH: "the Witch may save the victim with her one cure or kill with her one poison",
    Role.GUARD: "the Guard protects one player from the wolves (never the same one twice running)",
}


def _plural(role: Role, n: int) -> str:
    if n == 1:
        return role.value
    return "werewolves" if role is Role.WEREWOLF else f"{role.value}s"


def _text(name: str) -> str:
    return files("autowerewolf.prompts").joinpath(name).read_text(encoding="utf-8")


@cache
def _yaml(name: str) -> dict[str, object]:
    data = yaml.safe_load(_text(name))
    assert isinstance(data, dict), f"{name} must hold a mapping"
    return data


def _special_rules(rules: TableRules) -> str:
    flags = rules.variants
    lines = []
    if flags.allow_wolf_self_explode:
        lines.append(
            "A werewolf may self-explode instead of speaking: he dies revealed and the rest of "
            "the day (speeches, vote) is cancelled."
        )
    if Role.HUNTER in rules.roles:
        when = "killed by the wolves or exiled" + (
            " or poisoned" if flags.hunter_can_shoot_if_poisoned else " (not when poisoned)"
        )
        lines.append(f"The Hunter, when {when}, may shoot one player, revealing himself.")
    if Role.IDIOT in rules.roles:
        lines.append("An exiled hidden Village Idiot reveals himself, survives and loses his vote.")
    if Role.GUARD in rules.roles and Role.WITCH in rules.roles:
        outcome = "dies" if flags.same_guard_same_save_kills else "lives"
        lines.append(f"A player both guarded and saved by the Witch {outcome}.")
    if Role.WITCH in rules.roles:
        heal = (
            "may cure herself on Night 1 only"
            if flags.witch_can_self_heal_n1
            else "cannot cure herself"
        )
        lines.append(f"The Witch {heal}.")
    if flags.exile_needs_majority:
        lines.append("An exile needs more than half of the votes cast.")
    return "".join(f"- {line}\n" for line in lines)


def _sheriff_rules(rules: TableRules) -> str:
    if not rules.variants.sheriff_enabled:
        return ""
    weight = f"{rules.variants.sheriff_vote_weight:g}"
    return (
        "- Day 1 opens with a sheriff election, before the Night-1 deaths are announced: "
        "candidates speak, may withdraw, and the non-candidates vote. The sheriff's exile vote "
        f"counts {weight}; he sets the speaking order and speaks last; when he dies he passes "
        "the badge or tears it.\n"
    )


def _discussion_rule(rules: TableRules) -> str:
    flags = rules.variants
    n = flags.discussion_turns
    turns = f"{n} speeches a day" if n else "as many speeches a day as there are living players"
    return _DISCUSSION[flags.discussion].format(cap=flags.speech_cap, turns=turns)


def system_prompt(view: SeatView) -> str:
    """The seat's fixed instructions: the same text on every call (a cacheable prefix)."""
    rules = view.rules
    counts = Counter(rules.roles)
    roles_summary = ", ".join(f"{n} {_plural(r, n)}" for r, n in counts.items())
    night = [text for r, text in _NIGHT_ROLES.items() if r in counts]
    role_text = _yaml("roles.yaml")[view.role.value]
    assert isinstance(role_text, dict)
    team_line = (
        f"Your fellow werewolves are {', '.join(view.teammates)}.\n"
        if view.teammates
        else ("You are the only werewolf.\n" if view.role is Role.WEREWOLF else "")
    )
    return _text("rules.md").format(
        name=view.name,
        seat=view.seat,
        board=rules.board,
        n_seats=len(rules.roles),
        roles_summary=roles_summary,
        night_roles="; " + "; ".join(night) if night else "",
        sheriff_rules=_sheriff_rules(rules),
        discussion_rule=_discussion_rule(rules),
        special_rules=_special_rules(rules),
        wolf_win=_WOLF_WIN[rules.variants.win_mode],
        role=view.role.value,
        role_goal=role_text["goal"],
        role_tactics=role_text["tactics"],
        team_line=team_line,
    )


# Steps whose seat option harms that seat, and steps whose option helps it.
HARM_STEPS = frozenset({"wolves", "exile_vote", "witch_poison", "hunter_shot"})
HELP_STEPS = frozenset({"guard", "badge", "election_vote"})
CHECK_STEPS = frozenset({"seer"})


@dataclass(frozen=True)
class Known:
    """What the seat knows about the others, for labelling its options."""

    checks: Mapping[str, str] = field(default_factory=dict)  # the Seer's results: wolf/good
    claims: Mapping[str, str] = field(default_factory=dict)  # the latest claimed role per seat
    saved: frozenset[str] = frozenset()  # the Witch's cures: seats the wolves attacked


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
        if seat in known.claims and seat != view.seat:
            own.append(f"claims {known.claims[seat]}")
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
        if not wolf and role is not None and role is not Role.WEREWOLF:
            return "publicly revealed good players"
    if step in CHECK_STEPS and (seat in known.checks or revealed.get(seat) is not None):
        return "players whose side you already know"
    known_wolf = known.checks.get(seat) == "wolf" or revealed.get(seat) is Role.WEREWOLF
    if step in HELP_STEPS and not wolf and known_wolf:
        return "known wolves"
    return None


def choices_text(view: SeatView, step: str, known: Known) -> str:
    """The legal choices with who each seat is to this player. Choices that work against the
    player's own side are described, not listed, so that the last seats the model reads
    before answering are sensible ones (a small model tends to copy the last seat it read);
    they stay legal. A self-explosion is not among them (`explosion_note`)."""
    tags = _tags(view, known)
    listed: list[str] = []
    against: list[str] = []
    for option in view.options:
        reason = seat_against_own_side(view, known, step, option) if option in tags else None
        if reason is not None:
            against.append(reason)
        elif option == "explode":
            continue
        elif option in tags:
            note = ", ".join([view_name(view, option), *tags[option]])
            listed.append(f"{option} ({note})")
        else:
            listed.append(option)
    text = f"Choices: {', '.join(listed)}."
    if against:
        text += f" Also legal but against your own side: {', '.join(dict.fromkeys(against))}."
    return text


def explosion_note(view: SeatView) -> str | None:
    """A wolf's self-explosion, when it is legal, told before the question rather than among
    the choices: named last, a small model chose it at nearly every speech."""
    if "explode" not in view.options:
        return None
    return (
        "As a werewolf you may also answer 'explode' instead: you die at once, revealed as a "
        "werewolf, and the rest of the day (speeches and vote) is cancelled. It costs your team "
        "a player, so it is only for a last resort, such as when you or a fellow wolf is about "
        "to be exiled."
    )


def view_name(view: SeatView, seat: str) -> str:
    return next(p.name for p in view.players if p.seat == seat)


def prompt_key(step: str) -> str:
    """The wording key of a step's question: the step table's, else the step's own name
    (a probe, a bid)."""
    spec = STEPS.get(step)
    return spec.prompt if spec is not None and spec.prompt else step


def attacked_seat(view: SeatView) -> str | None:
    """The wolves' latest victim as the Witch was told (None for anyone else)."""
    return next((e.target for e in reversed(view.events) if e.kind is EventKind.WITCH_INFO), None)


def decision_instruction(prompt_key: str, day: int, attacked: str | None = None) -> str:
    """What the seat must decide now; changes every call, so it goes at the prompt's end."""
    template = _yaml("decisions.yaml")[prompt_key]
    assert isinstance(template, str)
    return template.format(day=day, attacked=attacked or "nobody")


# Where the step takes a text, the line says what it is: told nothing, the embedded model
# often wrote an assistant's refusal where the grammar made it write a speech.
ANSWER_LINES: dict[TextKind | None, str] = {
    None: "Answer with your private reasoning first, then your choice.",
    "speech": (
        "Answer with your private reasoning first, then your choice, then your speech: the "
        "words your character says aloud to the table."
    ),
    "message": (
        "Answer with your private reasoning first, then your choice, then your message: what "
        "you whisper to your fellow wolves."
    ),
}


# --- the parts of a decision prompt ---------------------------------------------------


def memory_text(digest: Sequence[str], recent: Iterable[str]) -> str:
    """The game so far as the seat remembers it: earlier days abridged, then today."""
    parts = []
    if digest:
        parts.append("Earlier days (abridged):\n" + "\n".join(digest) + "\nSince the last dawn:")
    parts.append("\n".join(recent))
    return "\n".join(parts)


def _join(items: Iterable[str]) -> str:
    return "; ".join(items)


def ledger_text(
    reader: str,
    facts: Sequence[tuple[str, str | None, str, int]],
    claims: Iterable[tuple[str, str, int]],
    votes: Mapping[int, Sequence[tuple[str, str | None]]],
    verbatim_day: int,
) -> str:
    """The seat's noted facts: (kind, seat, value, day) tuples, claims, and the exile ballots
    of the latest day whose ballots are no longer in the verbatim transcript (days before
    `verbatim_day`). The reader's own seat reads "you"."""

    def who(seat: str | None) -> str:
        return "you" if seat == reader else (seat or "-")

    checks = [f"{s} is {v} (night {d})" for k, s, v, d in facts if k == "check"]
    potions = [f"{v} on {who(s)} (night {d})" for k, s, v, d in facts if k == "potion"]
    deaths = [
        f"{who(s)} (night {d})" if v == "night" else f"{who(s)} ({v} day {d})"
        for k, s, v, d in facts
        if k == "death"
    ]
    revealed = [f"{who(s)} {v}" for k, s, v, _ in facts if k == "reveal"]
    parts = []
    if checks:
        parts.append("Your checks: " + _join(checks))
    if potions:
        parts.append("Your potions: " + _join(potions))
    claim_lines = [f"{s} claims {role} (day {d})" for s, role, d in sorted(claims) if s != reader]
    if claim_lines:
        parts.append("Role claims: " + _join(claim_lines))
    if deaths:
        parts.append("Dead: " + ", ".join(deaths))
    if revealed:
        parts.append("Revealed: " + ", ".join(revealed))
    for day in [d for d in sorted(votes) if d < verbatim_day][-1:]:
        ballots = " ".join(f"{who(voter)}->{who(target)}" for voter, target in votes[day])
        parts.append(f"Exile votes day {day}: {ballots}")
    return "\n".join(parts)


def identity_line(view: SeatView) -> str:
    """A reminder of who the seat is, at the start of every question. It names no seat id:
    a small model copies the seats it read last, and the question follows."""
    return f"(You are {view.name}, the {view.role.value}.)"


def decision_tail(
    identity: str,
    ledger: str,
    notes: Sequence[str],
    instruction: str,
    choices: str,
    text: TextKind | None = None,
) -> str:
    """The end of a decision's message, new at every call: who the seat is, the facts it
    noted, its agent's notes (estimates, strategy, experiences), the question and the
    choices. The question comes last, after every other seat id the seat reads."""
    parts = [identity]
    if ledger:
        parts.append(f"Facts you noted:\n{ledger}")
    parts.extend(notes)
    parts.append(f"{instruction}\n{choices}\n{ANSWER_LINES[text]}" if choices else instruction)
    return "\n\n".join(parts)


def decision_message(memory: str, tail: str) -> str:
    """The user message of one decision: the game so far, then its tail."""
    return f"Game so far:\n{memory}\n\n{tail}"


def reprompt(error: str, options: Sequence[str]) -> str:
    """After an invalid answer: the error, and the legal choices again."""
    return (
        f"That answer was invalid: {error}. Answer again as JSON with "
        f"'choice' one of: {', '.join(options)}."
    )


NO_ANSWER = "(no answer)"
