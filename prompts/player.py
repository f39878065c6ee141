"""The LLM player's words: its fixed system prompt, the decision it is asked, the facts it
noted, and the re-prompt after an invalid answer.

Long texts live beside this module (rules.md, roles.yaml, decisions.yaml) so they can be
edited without touching code.
"""

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from functools import cache
from importlib.resources import files

import yaml

from autowerewolf.rules.roles import Role
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


def option_labels(view: SeatView) -> dict[str, str]:
    """Names for seat options, marking the player itself and, for a wolf, its teammates."""
    labels = {}
    for player in view.players:
        note = player.name
        if player.seat == view.seat:
            note += ", you"
        elif player.seat in view.teammates:
            note += ", fellow wolf"
        labels[player.seat] = note
    return labels


def decision_instruction(
    prompt_key: str,
    day: int,
    options: Sequence[str],
    attacked: str | None = None,
    labels: Mapping[str, str] | None = None,
) -> str:
    """What the seat must decide now; changes every call, so it goes at the prompt's end.

    `labels` annotates options (a seat's name, "you", "fellow wolf") so a small model
    does not confuse seats.
    """
    template = _yaml("decisions.yaml")[prompt_key]
    assert isinstance(template, str)
    hint = (
        " ('explode' would kill you at once and reveal you as a werewolf: a last resort"
        " that loses your team a player.)"
        if "explode" in options
        else ""
    )
    text = template.format(day=day, attacked=attacked or "nobody", explode_hint=hint)
    labels = labels or {}
    choices = ", ".join(f"{o} ({labels[o]})" if o in labels else o for o in options)
    return f"{text}\nLegal choices: {choices}."


# --- the parts of a decision prompt ---------------------------------------------------


def memory_text(digest: Sequence[str], recent: Iterable[str]) -> str:
    """The game so far as the seat remembers it: an abridged digest, then recent lines."""
    parts = []
    if digest:
        parts.append("Earlier (abridged):\n" + "\n".join(digest))
    parts.append("\n".join(recent))
    return "\n".join(parts)


def _join(items: Iterable[str]) -> str:
    return "; ".join(items)


def ledger_text(
    facts: Sequence[tuple[str, str | None, str, int]],
    claims: Iterable[tuple[str, str, int]],
    votes: Mapping[int, Sequence[tuple[str, str | None]]],
    recent_vote_days: int = 2,
) -> str:
    """The seat's noted facts: (kind, seat, value, day) tuples, claims and exile ballots."""
    checks = [f"{s} is {v} (night {d})" for k, s, v, d in facts if k == "check"]
    potions = [f"{v} on {s} (night {d})" for k, s, v, d in facts if k == "potion"]
    deaths = [
        f"{s} (night {d})" if v == "night" else f"{s} ({v} day {d})"
        for k, s, v, d in facts
        if k == "death"
    ]
    revealed = [f"{s} {v}" for k, s, v, _ in facts if k == "reveal"]
    parts = []
    if checks:
        parts.append("Your checks: " + _join(checks))
    if potions:
        parts.append("Your potions: " + _join(potions))
    claim_lines = [f"{s} claims {role} (day {d})" for s, role, d in sorted(claims)]
    if claim_lines:
        parts.append("Role claims: " + _join(claim_lines))
    if deaths:
        parts.append("Dead: " + ", ".join(deaths))
    if revealed:
        parts.append("Revealed: " + ", ".join(revealed))
    for day in sorted(votes)[-recent_vote_days:]:
        ballots = " ".join(f"{voter}->{target or '-'}" for voter, target in votes[day])
        parts.append(f"Exile votes day {day}: {ballots}")
    return "\n".join(parts)


def decision_tail(ledger: str, instruction: str) -> str:
    """The end of a decision's message, new at every call: the noted facts and the question."""
    noted = f"Facts you noted:\n{ledger}\n\n" if ledger else ""
    return f"{noted}{instruction}"


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
