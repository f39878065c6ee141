"""Which agent design each LLM seat plays: data saved with the game's seating, so a resumed
or forked game keeps it. Chosen like models: a default, then per camp, role and seat (each
later layer wins), resolved from the seat's own role."""

import re
from importlib.metadata import entry_points
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_validator

from autowerewolf.errors import SettingsError
from autowerewolf.rules.roles import CAMP_NAMES, ROLE_NAMES, camp_of

# The built-in designs (players/agents/registry.py builds them).
BUILTIN_AGENTS = ("plain", "estimator", "adaptive", "support", "attack", "experience")
ENTRY_POINT_GROUP = "autowerewolf.agents"
PLUGIN_PREFIX = "python:"
PLUGIN_PATH = re.compile(r"python:[A-Za-z_][\w]*(\.[A-Za-z_]\w*)*:[A-Za-z_]\w*")
# Agents across a process boundary (players/external.py): a program, or an HTTP endpoint.
CMD_PREFIX = "cmd:"
HTTP_AGENT = re.compile(r"https?://[^\s/?#]+(/\S*)?")
SEAT = re.compile(r"P\d{2}")


class UnknownAgent(SettingsError):
    pass


def plugin_names() -> tuple[str, ...]:
    """Agent designs installed by other packages under the entry point group."""
    return tuple(sorted(ep.name for ep in entry_points(group=ENTRY_POINT_GROUP)))


def is_external(name: str) -> bool:
    """An agent across a process boundary: `cmd:PROGRAM ARGS` or `http(s)://...`."""
    return name.startswith(CMD_PREFIX) or bool(HTTP_AGENT.fullmatch(name))


def check_agent(name: str) -> str:
    """The name, if it names a built-in design, a `python:package.module:Class` plug-in, an
    installed entry point or an external agent; otherwise an error listing what is known."""
    name = name.strip()
    if name.startswith(CMD_PREFIX) and not name.removeprefix(CMD_PREFIX).strip():
        raise UnknownAgent("cmd: needs a program, e.g. cmd:python3 my_agent.py")
    if name in BUILTIN_AGENTS or PLUGIN_PATH.fullmatch(name) or name in plugin_names():
        return name
    if is_external(name):
        return name
    known = ", ".join((*BUILTIN_AGENTS, *plugin_names()))
    raise UnknownAgent(
        f"unknown agent design {name!r} (known: {known}; or python:package.module:Class, "
        "cmd:PROGRAM ARGS, http://HOST:PORT/PATH)"
    )


def _checked_keys(value: Any, allowed: tuple[str, ...] | re.Pattern[str], what: str) -> Any:
    if not isinstance(value, dict):
        return value
    for key in value:
        ok = key in allowed if isinstance(allowed, tuple) else bool(allowed.fullmatch(str(key)))
        if not ok:
            raise ValueError(f"unknown {what} {key!r} in agents")
    return {k: check_agent(v) if isinstance(v, str) else v for k, v in value.items()}


class AgentChoice(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    default: str = Field("plain", description="The design of every LLM seat not chosen below.")
    camps: dict[str, str] = Field({}, description="Per camp: wolf, good.")
    roles: dict[str, str] = Field({}, description="Per role: werewolf, seer, ...")
    seats: dict[str, str] = Field({}, description="Per seat: P01, P02, ...")

    @field_validator("default")
    @classmethod
    def _known_default(cls, name: str) -> str:
        return check_agent(name)

    @field_validator("camps", mode="before")
    @classmethod
    def _known_camps(cls, value: Any) -> Any:
        return _checked_keys(value, CAMP_NAMES, "camp")

    @field_validator("roles", mode="before")
    @classmethod
    def _known_roles(cls, value: Any) -> Any:
        return _checked_keys(value, ROLE_NAMES, "role")

    @field_validator("seats", mode="before")
    @classmethod
    def _known_seats(cls, value: Any) -> Any:
        return _checked_keys(value, SEAT, "seat")

    def resolve(self, seat: str, role: str) -> str:
        """The design of `seat`, whose role is `role`: seat > role > camp > default."""
        camp = camp_of(role).value
        for layer, key in ((self.seats, seat), (self.roles, role), (self.camps, camp)):
            if key in layer:
                return layer[key]
        return self.default

    def names(self) -> set[str]:
        """Every design this choice can give a seat."""
        return {self.default, *self.camps.values(), *self.roles.values(), *self.seats.values()}

    def with_flag(self, flag: str) -> "AgentChoice":
        """One `--agent` flag on top: NAME (the default), SEAT=NAME, role:ROLE=NAME or
        camp:CAMP=NAME."""
        where, sep, name = flag.partition("=")
        if not sep or flag.startswith((CMD_PREFIX, PLUGIN_PREFIX, "http://", "https://")):
            where, name = "default", flag  # a program's arguments or a URL may hold "="
        where, name = where.strip(), name.strip()
        data = self.model_dump()
        if where == "default":
            data["default"] = name
        elif where.startswith(("role:", "camp:")):
            section, _, key = where.partition(":")
            data[f"{section}s"] = {**data[f"{section}s"], key: name}
        else:
            data["seats"] = {**data["seats"], where: name}
        return AgentChoice.model_validate(data)
