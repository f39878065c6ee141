"""A tournament's design, recorded in its database, so that a rerun never mixes designs.

The first run of a tournament writes its design to the `tournaments` table: everything
that decides its games and their result rows (contestants, board, variants, day cap,
probes, models, agent designs, experience settings, prices, schedule and seed), and a
hash of it. A rerun compares its file with the record:

* the same design continues the tournament;
* more games extend it: the schedule of N games is the first N games of any longer one,
  so the games already played stay where the longer schedule puts them, and the record
  keeps each run's size, so the report can tell the first games from the added ones;
* fewer games are accepted while no game beyond them has a result;
* anything else is refused with one line naming the changed fields and how to start a new
  tournament (another `name:`, or another database).

Settings that do not decide a game (concurrency, bootstrap resamples, where the database
is, how a model server is reached: base_url, api_key_env, timeouts, retries, rate limits,
the simulated model's latency) may change freely.
"""

import hashlib
import json
from dataclasses import dataclass
from typing import Any

from autowerewolf.errors import SettingsError
from autowerewolf.evaluation.tournament.config import TournamentConfig
from autowerewolf.storage.stores import Store, own_table

# ModelConfig fields that say how a server is reached, not what it answers.
TRANSPORT = frozenset(
    {"base_url", "api_key_env", "timeout_s", "retries", "max_in_flight", "requests_per_s"}
    | {"latency_s", "jitter_s"}
)
# `stop` only says how many of the planned games are played, as `games` does; the scaffold
# baseline's games are not the tournament's.
OPERATIONAL = frozenset(
    {"name", "games", "stop", "concurrency", "bootstrap", "db", "scaffold_games"}
)


# Model settings added after designs were first recorded, with the value that played as
# before: left out at that value, so a recorded design keeps its fingerprint.
ADDED_LATER: dict[str, Any] = {"random_answerer": False, "second_look": True}


def _without_transport(value: Any) -> Any:
    if isinstance(value, dict):
        return {
            k: _without_transport(v)
            for k, v in value.items()
            if k not in TRANSPORT and not (k in ADDED_LATER and v in (None, ADDED_LATER[k]))
        }
    if isinstance(value, list):
        return [_without_transport(v) for v in value]
    return value


def design(config: TournamentConfig) -> dict[str, Any]:
    """The fields of a tournament file that decide its games, as JSON."""
    data = config.model_dump(mode="json", exclude=set(OPERATIONAL))
    if data.get("secret"):  # recorded as a digest: a changed secret is still a changed design
        data["secret"] = hashlib.sha256(data["secret"].encode()).hexdigest()[:16]
    return {
        k: _without_transport(v) if k in ("models", "contestants") else v for k, v in data.items()
    }


def fingerprint(config: TournamentConfig) -> str:
    text = json.dumps(design(config), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


@dataclass(frozen=True)
class Recorded:
    """What the database says of a tournament."""

    fingerprint: str
    design: dict[str, Any]
    runs: list[int]  # the planned games of each run that changed the size, first first
    seed: int
    bootstrap: int


def recorded(store: Store, name: str) -> Recorded | None:
    if "tournaments" not in store.tables():
        return None
    found = store.query("SELECT fingerprint, spec FROM tournaments WHERE name = ?", (name,))
    if not found:
        return None
    spec = json.loads(found[0][1])
    return Recorded(found[0][0], spec["design"], spec["runs"], spec["seed"], spec["bootstrap"])


def recorded_all(store: Store) -> dict[str, Recorded]:
    if "tournaments" not in store.tables():
        return {}
    names = [r[0] for r in store.query("SELECT name FROM tournaments ORDER BY name")]
    return {n: r for n in names if (r := recorded(store, n)) is not None}


def _changed(before: dict[str, Any], after: dict[str, Any]) -> list[str]:
    changed = []
    for key in sorted(before.keys() | after.keys()):
        if before.get(key) == after.get(key):
            continue
        if key == "contestants":
            old = {c["name"]: c for c in before.get(key, [])}
            new = {c["name"]: c for c in after.get(key, [])}
            parts = [f"added {n}" for n in new.keys() - old.keys()]
            parts += [f"removed {n}" for n in old.keys() - new.keys()]
            parts += [f"changed {n}" for n in old.keys() & new.keys() if old[n] != new[n]]
            changed.append(f"contestants ({', '.join(sorted(parts)) or 'order'})")
        else:
            changed.append(key)
    return changed


def _save(store: Store, config: TournamentConfig, runs: list[int]) -> None:
    spec = {
        "design": design(config),
        "runs": runs,
        "seed": config.seed,
        "bootstrap": config.bootstrap,
    }
    store.execute(
        "INSERT INTO tournaments (name, fingerprint, spec) VALUES (?, ?, ?) "
        "ON CONFLICT (name) DO UPDATE SET fingerprint = excluded.fingerprint, spec = excluded.spec",
        (config.name, fingerprint(config), json.dumps(spec, sort_keys=True)),
    )


def check_design(store: Store, config: TournamentConfig, finished: set[str]) -> str | None:
    """Record the tournament's design, or compare it with the recorded one: raises
    SettingsError on another design; returns a note for the terminal, if any. `finished`
    holds the ids of its games that have a result."""
    own_table(store, "tournaments")
    before = recorded(store, config.name)
    if before is None:
        _save(store, config, [config.games])
        if finished:
            return (
                f"tournament {config.name!r} has {len(finished)} games from before designs "
                "were recorded: assuming they were played with this file"
            )
        return None
    if before.fingerprint != fingerprint(config):
        changed = ", ".join(_changed(before.design, design(config)))
        raise SettingsError(
            f"tournament {config.name!r} in this database was played with another design "
            f"(changed: {changed}); to play this file, give it a new `name:` (or use another "
            "--db), or restore the file"
        )
    played = sorted(int(g.rsplit("-", 1)[1]) for g in finished)
    if played and played[-1] >= config.games:
        raise SettingsError(
            f"games: {config.games} is fewer than the {played[-1] + 1} games of tournament "
            f"{config.name!r} already planned and played; raise it, or start a new tournament "
            "(a new `name:` or another --db)"
        )
    runs = before.runs if before.runs[-1] == config.games else [*before.runs, config.games]
    _save(store, config, runs)
    if len(runs) > len(before.runs):
        return f"tournament {config.name!r} resized from {before.runs[-1]} to {config.games} games"
    return None


def runs_note(name: str, runs: list[int]) -> str:
    """Which games each run of a tournament planned, for the report's header."""
    if len(runs) < 2:
        return f"Tournament {name}: {runs[-1]} games planned in one run."
    parts, start = [], 0
    for size in runs:
        if size > start:
            parts.append(f"{name}-{start:05d} to {name}-{size - 1:05d}")
        start = max(start, size)
    return (
        f"Tournament {name}, extended with the same design: games "
        + ", then ".join(parts)
        + " (one range per run)."
    )
