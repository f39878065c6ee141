"""The running server's own route table, filled in for one game, and the owner's picture of
everything a request could change: what the hardening and framing tests walk and compare."""

import re
import uuid
from dataclasses import dataclass
from typing import Any

from tests.web.conftest import Server, token_of

FORM: dict[str, object] = {"board": "12-A", "default": "random", "seats": {"P03": "human"}}


@dataclass(frozen=True)
class Table:
    game: str
    seat: str  # the token of the game's human seat P03
    routes: list[dict[str, Any]]  # the server's route table (/aw/routes)
    values: dict[str, str]  # a real value for each path parameter

    def paths(self, method: str) -> list[str]:
        """Every route answering `method` (mounts answer every method), filled in."""
        found = []
        for route in self.routes:
            if method in route["methods"] or route["methods"] == ["*"]:
                filled = re.sub(r"\{([^}]+)\}", lambda m: self.values[m.group(1)], route["path"])
                found.append(filled + "/index.html" if filled == "/app" else filled)
        return sorted(set(found))


def waiting_game(server: Server, form: dict[str, object] = FORM) -> Table:
    """A new game waiting for its human seat P03, and the route table filled in for it."""
    made = server.create(form)
    game = str(made["game"])
    server.wait_status(game, "waiting")
    with server.client(server.owner) as owner:
        run = owner.get(f"/threads/{game}/runs").json()[0]["run_id"]
        checkpoint = owner.get(f"/threads/{game}/state").json()["checkpoint"]["checkpoint_id"]
        assistant = owner.post("/assistants/search", json={}).json()[0]["assistant_id"]
        routes = owner.get("/aw/routes").json()
    values = {
        "thread_id": game, "game": game, "run_id": run, "checkpoint_id": checkpoint,
        "assistant_id": assistant, "ref:int": "0", "holder": "P03", "operation_id": "op",
        "cron_id": str(uuid.uuid4()), "namespace": "ns",
    }  # fmt: skip
    links = made["links"]
    assert isinstance(links, dict)
    return Table(game, token_of(links["P03"]), routes, values)


def owner_picture(server: Server, game: str) -> dict[str, Any]:
    """What any request could have changed, as the owner reads it: the game list, the
    threads, the game's header and links, its newest checkpoint and its runs."""
    with server.client(server.owner) as owner:
        header = owner.get(f"/aw/games/{game}").json()
        return {
            "games": owner.get("/aw/games").json(),
            "threads": owner.post("/threads/count", json={}).json(),
            "header": header,
            "checkpoint": owner.get(f"/threads/{game}/state").json()["checkpoint"],
            "runs": [r["run_id"] for r in owner.get(f"/threads/{game}/runs").json()],
        }
