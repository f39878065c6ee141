"""Prompt texts for LLM players, filled from the game's configuration.

The texts live beside this module (rules.md, roles.yaml, decisions.yaml) so they can be
edited without touching code.
"""

from collections import Counter
from functools import cache
from importlib.resources import files

import yaml

from autowerewolf.rules.config import GameConfig
from autowerewolf.rules.roles import Role
from autowerewolf.rules.variants import WinMode

_WOLF_WIN = {
    WinMode.SIDE: "The werewolves win when every villager or every god (special role) is dead.",
    WinMode.CITY: "The werewolves win when every good player is dead.",
    WinMode.PARITY: "The werewolves win when they equal or outnumber the good players.",
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
    return files(__package__).joinpath(name).read_text(encoding="utf-8")


@cache
def _yaml(name: str) -> dict[str, object]:
    return yaml.safe_load(_text(name))


def _special_rules(config: GameConfig) -> str:
    rules = config.variants
    lines = []
    if rules.allow_wolf_self_explode:
        lines.append(
            "A werewolf may self-explode instead of speaking: he dies revealed and the rest of "
            "the day (speeches, vote) is cancelled."
        )
    if Role.HUNTER in config.roles:
        when = "killed by the wolves or exiled" + (
            " or poisoned" if rules.hunter_can_shoot_if_poisoned else " (not when poisoned)"
        )
        lines.append(f"The Hunter, when {when}, may shoot one player, revealing himself.")
    if Role.IDIOT in config.roles:
        lines.append("An exiled hidden Village Idiot reveals himself, survives and loses his vote.")
    if Role.GUARD in config.roles and Role.WITCH in config.roles:
        outcome = "dies" if rules.same_guard_same_save_kills else "lives"
        lines.append(f"A player both guarded and saved by the Witch {outcome}.")
    if Role.WITCH in config.roles:
        heal = (
            "may cure herself on Night 1 only"
            if rules.witch_can_self_heal_n1
            else "cannot cure herself"
        )
        lines.append(f"The Witch {heal}.")
    if rules.exile_needs_majority:
        lines.append("An exile needs more than half of the votes cast.")
    return "".join(f"- {line}\n" for line in lines)


def _sheriff_rules(config: GameConfig) -> str:
    if not config.variants.sheriff_enabled:
        return ""
    weight = f"{config.variants.sheriff_vote_weight:g}"
    return (
        "- Day 1 opens with a sheriff election, before the Night-1 deaths are announced: "
        "candidates speak, may withdraw, and the non-candidates vote. The sheriff's exile vote "
        f"counts {weight}; he sets the speaking order and speaks last; when he dies he passes "
        "the badge or tears it.\n"
    )


def system_prompt(
    config: GameConfig, seat: str, name: str, role: Role, teammates: tuple[str, ...]
) -> str:
    """The seat's fixed instructions: the same text on every call (a cacheable prefix)."""
    counts = Counter(config.roles)
    roles_summary = ", ".join(f"{n} {_plural(r, n)}" for r, n in counts.items())
    night = [text for r, text in _NIGHT_ROLES.items() if r in counts]
    role_text = _yaml("roles.yaml")[role.value]
    assert isinstance(role_text, dict)
    team_line = (
        f"Your fellow werewolves are {', '.join(teammates)}.\n"
        if teammates
        else ("You are the only werewolf.\n" if role is Role.WEREWOLF else "")
    )
    return _text("rules.md").format(
        name=name,
        seat=seat,
        board=config.board,
        n_seats=config.n_seats,
        roles_summary=roles_summary,
        night_roles="; " + "; ".join(night) if night else "",
        sheriff_rules=_sheriff_rules(config),
        special_rules=_special_rules(config),
        wolf_win=_WOLF_WIN[config.variants.win_mode],
        role=role.value,
        role_goal=role_text["goal"],
        role_tactics=role_text["tactics"],
        team_line=team_line,
    )


def decision_instruction(
    step: str,
    day: int,
    options: tuple[str, ...],
    attacked: str | None = None,
    labels: dict[str, str] | None = None,
) -> str:
    """What the seat must decide now; changes every call, so it goes at the prompt's end.

    `labels` annotates options (a seat's name, "you", "fellow wolf") so a small model
    does not confuse seats.
    """
    template = _yaml("decisions.yaml")[step]
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
