"""The live link of each seat and of the spectators of each game: its generation and its
expiry, kept in a small file beside the game database (the server's folder) so that a
revoked link stays revoked after a restart.

A link is a token (tokens.py) of the current generation that has not expired. Revoking
moves the generation on and issues a new link with a fresh expiry; every older link of that
holder is refused from then on. The file holds no token and no secret: only numbers.
A link handed out is the app's address with the token in its fragment (`entry`).
"""

import json
import logging
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from autowerewolf.private_files import write_private_text
from autowerewolf.web import tokens
from autowerewolf.web.settings import links_path

DEFAULT_LIFETIME_S = 7 * 24 * 3600  # a week: long enough for a slow game, short for a leak
MIN_LIFETIME_S = 60
MAX_LIFETIME_S = 90 * 24 * 3600
OWNER_LIFETIME_S = 30 * 24 * 3600  # printed again at every start
DAMAGED = "*damaged*"
log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Link:
    generation: int
    expires: int


class LinkBook:
    """Generations and expiries by game and holder (a seat id, or "spectator")."""

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self._lock = threading.Lock()
        self._games: dict[str, dict[str, Any]] = self._read()

    def _read(self) -> dict[str, dict[str, Any]]:
        if self.path is None or not self.path.exists():
            return {}
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            data = None
        games = data.get("games") if isinstance(data, dict) else None
        if isinstance(games, dict):
            return games
        # A revoked link must not come back: a damaged book refuses every seat's and
        # spectator's link until the owner deletes it (the owner's link still works).
        log.error("the link book %s is damaged: seat and spectator links are refused", self.path)
        return {DAMAGED: {}}

    def _write(self) -> None:
        if self.path is None or DAMAGED in self._games:
            return
        # Never a half-written book; private, as it names the games and their holders.
        write_private_text(self.path, json.dumps({"games": self._games}, indent=1))

    def _game(self, game: str) -> dict[str, Any]:
        return self._games.setdefault(game, {"lifetime_s": DEFAULT_LIFETIME_S, "links": {}})

    def set_lifetime(self, game: str, lifetime_s: int) -> None:
        with self._lock:
            self._game(game)["lifetime_s"] = lifetime_s
            self._write()

    def current(self, game: str, holder: str) -> Link:
        """The holder's live link, issued now if it has none or it expired."""
        with self._lock:
            link = self._game(game)["links"].get(holder)
            if link is None or link["expires"] <= time.time():
                link = self._issue(game, holder, link["generation"] + 1 if link else 0)
            return Link(link["generation"], link["expires"])

    def revoke(self, game: str, holder: str) -> Link:
        """Refuse every link the holder has had; return its new one."""
        with self._lock:
            old = self._game(game)["links"].get(holder)
            link = self._issue(game, holder, old["generation"] + 1 if old else 1)
            return Link(link["generation"], link["expires"])

    def _issue(self, game: str, holder: str, generation: int) -> dict[str, int]:
        entry = self._game(game)
        link = {"generation": generation, "expires": int(time.time()) + entry["lifetime_s"]}
        entry["links"][holder] = link
        self._write()
        return link

    def is_live(self, claims: tokens.Claims) -> bool:
        if claims.is_owner:
            return True
        if DAMAGED in self._games or claims.game is None:
            return False
        link = self._games.get(claims.game, {}).get("links", {}).get(claims.holder)
        # A holder the book never gave a link to accepts generation 0 (its first link).
        return claims.generation == (link["generation"] if link else 0)


_book: LinkBook | None = None


def book() -> LinkBook:
    """The book of this server's database (one per process, read once)."""
    global _book
    if _book is None:
        _book = LinkBook(links_path())
    return _book


def link_token(kind: tokens.Kind, game: str, seat: str | None = None) -> str:
    """The holder's live token."""
    link = book().current(game, seat or "spectator")
    return tokens.make(kind, game, seat, expires=link.expires, generation=link.generation)


def entry(token: str) -> str:
    # The token travels in the address's fragment, which browsers never send to a server:
    # the page hands it over in a request body (/aw/session) and drops it from the address.
    return f"/app/#/enter/{token}"


def link(kind: tokens.Kind, game_id: str, seat: str | None = None) -> str:
    return entry(link_token(kind, game_id, seat))


def links_of(game_id: str, humans: list[str]) -> dict[str, str]:
    links = {seat: link("seat", game_id, seat) for seat in humans}
    links["spectator"] = link("spectator", game_id)
    return links


def owner_token() -> str:
    return tokens.make("owner", expires=int(time.time()) + OWNER_LIFETIME_S)


def authenticated(token: str | None) -> tokens.Claims | None:
    """The claims of a genuine, unexpired and unrevoked token, else None."""
    claims = tokens.verify(token)
    return claims if claims is not None and book().is_live(claims) else None
