"""The prompt-leak scan (RULES §9) applied to whatever the web app sends a seat or a
spectator: no other seat's hidden role, private result, night action or reasoning, no
game seed, secret or step counter, nothing from an interrupt's payload of all asked seats."""

import json
from collections.abc import Iterable
from typing import Any

from autowerewolf.rules.roles import Role
from autowerewolf.rules.state import GameState

# Keys only the owner's god view may carry.
GOD_ONLY_KEYS = {"seed", "ply", "raw", "reasoning", "data", "waiting_for", "transcript", "links"}
NEVER_KINDS = {"deal", "death"}
PRIVATE_KINDS = {
    "wolf_team": Role.WEREWOLF,
    "wolf_proposal": Role.WEREWOLF,
    "wolf_target": Role.WEREWOLF,
    "seer_result": Role.SEER,
    "witch_info": Role.WITCH,
    "witch_cure": Role.WITCH,
    "witch_poison": Role.WITCH,
    "guard": Role.GUARD,
}
PRIVATE_TAGS = {
    "[wolves]": Role.WEREWOLF,
    "The werewolves are": Role.WEREWOLF,
    "[seer": Role.SEER,
    "[witch": Role.WITCH,
    "[guard": Role.GUARD,
}


def parse_payloads(texts: Iterable[str]) -> list[Any]:
    parsed = []
    for text in texts:
        try:
            parsed.append(json.loads(text))
        except ValueError:
            parsed.append(text)
    return parsed


def _walk(value: Any) -> Iterable[Any]:
    yield value
    if isinstance(value, dict):
        for item in value.values():
            yield from _walk(item)
    elif isinstance(value, list):
        for item in value:
            yield from _walk(item)


def leaks(payloads: Iterable[Any], truth: GameState, audience: str) -> list[str]:
    """Everything in `payloads` (parsed JSON, or text) that `audience` (a seat, or
    "public") may not know, judged against the game's final omniscient state."""
    me = truth.seat(audience) if audience != "public" else None
    role = me.role if me is not None else None
    wolves = {s.id for s in truth.seats if s.is_wolf}
    reveal_dead = truth.config.variants.reveal_role_on_death
    problems: list[str] = []
    for payload in payloads:
        if isinstance(payload, dict) and payload.get("over"):
            # The last frame: the moderator reveals the deal and the night actions to all.
            payload = {k: v for k, v in payload.items() if k not in ("reveal", "players")}
        for node in _walk(payload):
            if isinstance(node, str):
                problems += _text_leaks(node, truth, audience, role)
            if not isinstance(node, dict):
                continue
            problems += [f"god-only key {k!r}" for k in GOD_ONLY_KEYS & set(node)]
            if node.get("status") == "waiting":
                problems.append("who the game waits for is the owner's business")
            kind = node.get("kind")
            if kind in NEVER_KINDS:
                problems.append(f"omniscient event {kind}")
            if kind in PRIVATE_KINDS and PRIVATE_KINDS[kind] is not role:
                problems.append(f"private event {kind} seen by {role}")
            seat = node.get("seat")
            if isinstance(seat, str) and seat.startswith("P") and seat != audience:
                if node.get("role"):
                    problems.append(f"{seat}'s role in a {audience} payload")
                revealed = node.get("revealed_role")
                if revealed and not (truth.seat(seat).revealed or reveal_dead):
                    problems.append(f"{seat}'s unrevealed role {revealed}")
                if node.get("teammate") and not (me is not None and me.is_wolf and seat in wolves):
                    problems.append(f"{seat} shown as a teammate to {audience}")
            if node.get("teammates") and not (me is not None and me.is_wolf):
                problems.append("teammates shown to a non-wolf")
    return sorted(set(problems))


def _text_leaks(text: str, truth: GameState, audience: str, role: Role | None) -> list[str]:
    problems = []
    if truth.config.secret and truth.config.secret in text:
        problems.append("the game's secret")
    if "SECRET-" in text:
        problems.append("a private reasoning marker")
    if " dies: " in text or text.startswith("Roles: "):
        problems.append(f"an omniscient line: {text[:60]}")
    for tag, owner in PRIVATE_TAGS.items():
        if tag in text and owner is not role:
            problems.append(f"{tag} text seen by {role}")
    for seat in truth.seats:
        if seat.id == audience:
            continue
        if f"{seat.id}'s role is" in text or f"{seat.id}={seat.role.value}" in text:
            problems.append(f"{seat.id}'s role in text")
    return problems
