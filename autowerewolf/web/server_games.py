"""Games run by the LangGraph server: creating them, their status, their pending human
decision, resuming them, and adopting games the server's registry does not know.

Everything goes through LangGraph's in-process client (`get_client(url=None)`): requests
into this same server that skip its auth, so callers must have authorized the user.
Only UUID game ids can be LangGraph threads; other games (from the command line) are
read from the database only.
"""

import asyncio
from collections.abc import Mapping
from typing import Any

from langgraph_sdk import get_client
from langgraph_sdk.client import LangGraphClient
from langgraph_sdk.schema import Command, Thread, ThreadSelectField

from autowerewolf.graph.builder import RECURSION_LIMIT
from autowerewolf.players.seating import Seating
from autowerewolf.rules.config import GameSetup
from autowerewolf.runner import MAX_CONCURRENCY, Games
from autowerewolf.seeding import is_server_game
from autowerewolf.web.reader import GameReader
from autowerewolf.web.run_queue import run_created
from autowerewolf.web.settings import database_path

GRAPH_ID = "werewolf"
GAME_TAG = {"aw": "game"}
RUN_OPTIONS: dict[str, Any] = {
    "config": {"recursion_limit": RECURSION_LIMIT, "max_concurrency": MAX_CONCURRENCY},
    # Every step is committed before the next starts, as on the command line.
    "durability": "sync",
    # One run per game at a time: a second resume would lose answers.
    "multitask_strategy": "reject",
    "stream_mode": ["updates"],
}
# What the web app reads of a thread. Without `select`, the server serializes the thread's
# values (the whole game, every event) on every read: these reads happen at every step
# while a seat waits for its next question.
THREAD_FIELDS: list[ThreadSelectField] = ["thread_id", "status", "interrupts"]

_client: LangGraphClient | None = None


def client() -> LangGraphClient:
    """Created on first use: the in-process transport needs the server's app to exist."""
    global _client
    if _client is None:
        _client = get_client(url=None, api_key=None)
    return _client


async def create_game(setup: GameSetup, seating: Seating, game_id: str | None = None) -> str:
    """Start a game: a new thread (with the id given, a UUID, or a fresh one) and its run."""
    thread = await client().threads.create(
        metadata={**GAME_TAG, "graph_id": GRAPH_ID}, thread_id=game_id, graph_id=GRAPH_ID
    )
    game_id = str(thread["thread_id"])
    game_input = {
        "setup": setup.model_dump(mode="json"),
        "seating": seating.model_dump(mode="json"),
    }
    await client().runs.create(game_id, GRAPH_ID, input=game_input, **RUN_OPTIONS)
    run_created()
    return game_id


async def resume(game_id: str, answers: dict[str, Any] | None = None) -> None:
    command: Command | None = {"resume": answers} if answers is not None else None
    await client().runs.create(game_id, GRAPH_ID, command=command, **RUN_OPTIONS)
    run_created()


async def thread_statuses() -> dict[str, str]:
    """LangGraph's status (idle, busy, interrupted, error) of every game thread."""
    statuses: dict[str, str] = {}
    offset, page = 0, 500
    while True:
        threads = await client().threads.search(
            metadata=GAME_TAG, limit=page, offset=offset, select=THREAD_FIELDS
        )
        statuses.update({str(t["thread_id"]): str(t["status"]) for t in threads})
        if len(threads) < page:
            return statuses
        offset += page


def interrupt_of(thread: Mapping[str, Any]) -> dict[str, Any] | None:
    """The human decision a thread waits for: `{"id", "value"}`, where `value` carries
    every asked seat's private view (nodes/ask.py): hand each seat only its own part."""
    if thread["status"] != "interrupted":
        return None
    interrupts = [i for batch in (thread.get("interrupts") or {}).values() for i in batch]
    return interrupts[0] if interrupts else None


async def waiting_for_humans() -> dict[str, dict[str, Any]]:
    """The pending interrupt of every game thread waiting for its human seats."""
    waiting: dict[str, dict[str, Any]] = {}
    offset, page = 0, 500
    while True:
        threads = await client().threads.search(
            metadata=GAME_TAG,
            status="interrupted",
            limit=page,
            offset=offset,
            select=THREAD_FIELDS,
        )
        for thread in threads:
            if (pending := interrupt_of(thread)) is not None:
                waiting[str(thread["thread_id"])] = pending
        if len(threads) < page:
            return waiting
        offset += page


async def thread_of(game_id: str) -> Thread | None:
    """The game's thread, its status and interrupts only; None if the server has none."""
    found = await client().threads.search(ids=[game_id], limit=1, select=THREAD_FIELDS)
    return found[0] if found else None


async def pending_interrupt(game_id: str) -> dict[str, Any] | None:
    if not is_server_game(game_id):
        return None
    thread = await thread_of(game_id)
    return interrupt_of(thread) if thread is not None else None


def fork_into_database(game_id: str, ply: int, branch: str) -> None:
    """Write the branch of a game at step `ply` into the game database (blocking: call it
    in a worker thread). The server's registry learns of it with `adopt`."""
    games = Games(database_path())
    try:
        games.fork(game_id, ply, branch)
    finally:
        games.close()


async def waiting_unheard(game_ids: list[str], reader: GameReader) -> list[str]:
    """The server games saved waiting for a human whose question this server does not hold
    (the server that asked it died): run again, they ask it anew."""
    statuses = await thread_statuses()
    stopped = []
    for game_id in game_ids:
        if not is_server_game(game_id) or statuses.get(game_id) in ("busy", "interrupted"):
            continue
        row = await asyncio.to_thread(reader.listed, game_id)
        if row is not None and row.status == "waiting":
            stopped.append(game_id)
    return stopped


async def adopt(game_ids: list[str]) -> list[str]:
    """Register saved games the server's thread registry does not know: it is a file
    flushed every few seconds, so a killed server forgets its newest games, and games
    written by another process were never in it. Without `graph_id` their state reads empty."""
    known = set(await thread_statuses())
    adopted = []
    for game_id in game_ids:
        if is_server_game(game_id) and game_id not in known:
            await client().threads.create(
                thread_id=game_id,
                if_exists="do_nothing",
                metadata={**GAME_TAG, "graph_id": GRAPH_ID, "adopted": True},
                graph_id=GRAPH_ID,
            )
            adopted.append(game_id)
    return adopted
