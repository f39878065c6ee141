"""Stateless capability tokens: `kind.game.seat.signature`, signed with the server's secret.

- owner: everything, on every game (printed by `autowerewolf serve` at startup);
- seat: one seat of one game: that seat's view and its answers;
- spectator: one game, the public view only.

Nothing about a token is stored: the server checks the signature. The secret lives only in
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
from dataclasses import dataclass
from typing import Literal, cast

SECRET_ENV = "AW_SERVER_SECRET"
Kind = Literal["owner", "seat", "spectator"]
KINDS: tuple[Kind, ...] = ("owner", "seat", "spectator")
# Game ids and seats go inside a dotted token: no dots, nothing exotic.
_PART = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
_NONE = "-"


@dataclass(frozen=True)
class Claims:
    kind: Kind
    game: str | None = None  # None: every game (owner)
    seat: str | None = None

    @property
    def is_owner(self) -> bool:
        return self.kind == "owner"


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


def make(kind: Kind, game: str | None = None, seat: str | None = None) -> str:
    parts = [game or _NONE, seat or _NONE]
    if kind not in KINDS or not all(p == _NONE or _PART.match(p) for p in parts):
        raise ValueError(f"cannot make a {kind} token for {parts}")
    payload = ".".join([kind, *parts])
    return f"{payload}.{_signature(payload)}"


def verify(token: str | None) -> Claims | None:
    """The claims of a genuine token, else None."""
    if not token or token.count(".") != 3:
        return None
    kind, game, seat, signature = token.split(".")
    if kind not in KINDS:
        return None
    if not hmac.compare_digest(signature, _signature(f"{kind}.{game}.{seat}")):
        return None
    return Claims(
        kind=cast(Kind, kind),  # checked against KINDS above
        game=None if game == _NONE else game,
        seat=None if seat == _NONE else seat,
    )
