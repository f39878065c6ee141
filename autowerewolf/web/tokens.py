"""Capability tokens: `kind.game.seat.expires.generation.signature`, signed with the server's
secret.

- owner: everything, on every game (printed by `autowerewolf serve` at startup);
- seat: one seat of one game: that seat's view and its answers;
- spectator: one game, the public view only.

A token carries its expiry (Unix seconds) and its link generation: the owner revokes a
seat's or the spectators' links by moving that generation on (links.py), and a token of an
older generation is refused. Nothing else about a token is stored. The secret lives only in
the server process's environment (`AW_SERVER_SECRET`): it is generated at each start unless
the user sets it, and it is never written to disk, so links stop working when a server with
a new secret starts.
"""

import base64
import hashlib
import hmac
import os
import re
import secrets
import time
from dataclasses import dataclass
from typing import Literal

SECRET_ENV = "AW_SERVER_SECRET"
Kind = Literal["owner", "seat", "spectator"]
KINDS: tuple[Kind, ...] = ("owner", "seat", "spectator")
# Game ids and seats go inside a dotted token: no dots, nothing exotic.
_PART = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
_NUMBER = re.compile(r"^[0-9]{1,12}$")
_NONE = "-"


@dataclass(frozen=True)
class Claims:
    kind: Kind
    game: str | None = None  # None: every game (owner)
    seat: str | None = None
    expires: int = 0  # Unix seconds
    generation: int = 0  # of the game's links for this seat (or its spectators)

    @property
    def is_owner(self) -> bool:
        return self.kind == "owner"

    @property
    def holder(self) -> str:
        """Whose link this is within its game: a seat, or the spectators."""
        return self.seat or "spectator"

    @property
    def session(self) -> str:
        """The name of this token's session in a browser (sessions.py): one per holder, so
        an owner's, a seat's and a spectator's sessions of different games live side by side."""
        return ".".join(p for p in (self.kind, self.game, self.seat) if p)


def new_secret() -> str:
    return secrets.token_urlsafe(32)


def _secret() -> bytes:
    value = os.environ.get(SECRET_ENV, "")
    if not value:
        raise RuntimeError(f"{SECRET_ENV} is not set: start the server with `autowerewolf serve`")
    return value.encode()


def _signature(payload: str) -> str:
    mac = hmac.new(_secret(), payload.encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(mac).decode().rstrip("=")


def make(
    kind: Kind,
    game: str | None = None,
    seat: str | None = None,
    *,
    expires: int,
    generation: int = 0,
) -> str:
    parts = [game or _NONE, seat or _NONE]
    if kind not in KINDS or not all(p == _NONE or _PART.match(p) for p in parts):
        raise ValueError(f"cannot make a {kind} token for {parts}")
    payload = ".".join([kind, *parts, str(expires), str(generation)])
    return f"{payload}.{_signature(payload)}"


def verify(token: str | None, now: float | None = None) -> Claims | None:
    """The claims of a genuine token that has not expired, else None. (Whether its link was
    revoked is for links.py.)"""
    if not token or token.count(".") != 5:
        return None
    kind, game, seat, expires, generation, signature = token.split(".")
    if kind not in KINDS or not (_NUMBER.match(expires) and _NUMBER.match(generation)):
        return None
    payload = f"{kind}.{game}.{seat}.{expires}.{generation}"
    if not hmac.compare_digest(signature, _signature(payload)):
        return None
    if int(expires) <= (time.time() if now is None else now):
        return None
    return Claims(
        kind=kind,  # checked against KINDS above
        game=None if game == _NONE else game,
        seat=None if seat == _NONE else seat,
        expires=int(expires),
        generation=int(generation),
    )
