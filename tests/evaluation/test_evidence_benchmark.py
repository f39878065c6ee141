"""`benchmarks/evidence.py` judges each kind of public evidence against a wolf by the true
roles of finished games: what a poison or a shot may act on (prompts/choices.py)."""

import subprocess
import sys
from collections import Counter
from dataclasses import replace
from pathlib import Path

from autowerewolf.players.seating import Seating
from autowerewolf.rules.config import GameSetup
from autowerewolf.rules.events import Audience, Event, EventKind
from autowerewolf.runner import GameRecord, Games
from benchmarks.evidence import game_values, table


def _play(db: Path, seed: int) -> GameRecord:
    games = Games(db, create=True)
    try:
        return games.start(f"e-s{seed}", GameSetup(seed=seed, secret=""), Seating(default="random"))
    finally:
        games.close()


def _said(actor: str, text: str) -> Event:
    return Event(
        kind=EventKind.SPEECH, day=1, phase="day", audience=Audience.PUBLIC, actor=actor, text=text
    )


def _days_voted_with(record: GameRecord, wolf: str) -> Counter[str]:
    """Recounted from the ballots: each seat's days voting for a player the wolf voted for."""
    ballots = [e for e in record.events if e.kind is EventKind.BALLOT and e.value == "exile"]
    days: Counter[str] = Counter()
    for day in {e.day for e in ballots}:
        targets = {e.target for e in ballots if e.day == day and e.actor == wolf and e.target}
        days.update({e.actor for e in ballots if e.day == day and e.target in targets} - {wolf})
    return days


def test_each_vote_signal_counts_every_pair_of_a_wolf_and_another_seat(tmp_path: Path) -> None:
    record = _play(tmp_path / "g.db", 4)
    wolves = sorted(s.id for s in record.game.seats if s.is_wolf)
    others = [s.id for s in record.game.seats]
    values = game_values(record)
    expected: Counter[tuple[str, str]] = Counter()
    for wolf in wolves:
        days = _days_voted_with(record, wolf)
        for seat in others:
            if seat != wolf:
                row = ("no day", "one day")[days[seat]] if days[seat] < 2 else "2 days or more"
                expected[(f"voted with a wolf on {row}", "n")] += 1
                expected[(f"voted with a wolf on {row}", "wolves")] += seat in wolves
    got = {k: v for k, v in values.items() if str(k[0]).startswith("voted with")}
    assert got == {k: v for k, v in expected.items() if v}
    assert sum(v for k, v in got.items() if k[1] == "n") == len(wolves) * (len(others) - 1)
    # chance: another seat than a given wolf is a wolf, 3 of 11 on the 12-player board
    assert values[("beside a wolf", "wolves")] / values[("beside a wolf", "n")] == 3 / 11


def test_vouching_and_reports_are_judged_by_who_spoke_and_who_was_named(tmp_path: Path) -> None:
    record = _play(tmp_path / "g.db", 4)
    wolves = sorted(s.id for s in record.game.seats if s.is_wolf)
    good = sorted(s.id for s in record.game.seats if not s.is_wolf)
    said = [
        _said(good[0], f"I trust {wolves[0]}."),  # a good seat fooled
        _said(wolves[1], f"I vouch for {wolves[0]}, he is calm."),  # a wolf covering
        _said(good[1], f"I trust {good[2]}."),  # not about a wolf: no signal
        _said(good[3], f"My check found {wolves[2]} a wolf."),
        _said(good[4], f"I checked {wolves[2]}: a werewolf."),  # a second reporter
        _said(wolves[3], f"My check found {good[5]} a wolf."),  # a bluff
    ]
    values = game_values(replace(record, events=[*record.events, *said]))
    assert values[("vouched for a wolf", "n")] == 2
    assert values[("vouched for a wolf", "wolves")] == 1
    assert values[("reported by two or more", "n")] == 1
    assert values[("reported by two or more", "wolves")] == 1
    assert values[("reported as a wolf by one seat", "n")] == 1
    assert ("reported as a wolf by one seat", "wolves") not in values  # the bluff named a good seat


def test_a_false_claim_of_a_power_role_is_judged_by_the_claimant(tmp_path: Path) -> None:
    record = _play(tmp_path / "g.db", 4)
    roles = {s.id: s.role.value for s in record.game.seats}
    witch = next(seat for seat, role in roles.items() if role == "witch")
    wolf = next(seat for seat, role in roles.items() if role == "werewolf")
    villager = next(seat for seat, role in roles.items() if role == "villager")
    said = [
        _said(witch, "I am the Witch, and I saved P05."),  # true: no signal
        _said(wolf, "I am the Witch: trust me."),
        _said(wolf, "I'm the witch, I said so."),  # the same claim again: counted once
        _said(villager, "I am the Seer, and my check found P05 good."),
        _said(villager, "I am a villager."),  # not a power role
    ]
    values = game_values(replace(record, events=[*record.events, *said]))
    assert values[("claimed a power role it does not hold", "n")] == 2
    assert values[("claimed a power role it does not hold", "wolves")] == 1
    # chance: any seat but the role's holder is a wolf, 4 of 11
    base = "any seat but a role's holder"
    assert values[(base, "wolves")] / values[(base, "n")] == 4 / 11


def test_the_table_adds_up_databases_with_intervals_and_chance(tmp_path: Path) -> None:
    _play(tmp_path / "a.db", 4), _play(tmp_path / "b.db", 5)
    lines = table([tmp_path])  # a folder: every *.db in it
    assert lines[0] == "2 finished games"
    rows = {
        cells[0]: cells[1:]
        for line in lines[4:]
        for cells in [[c.strip() for c in line.strip("|").split("|")]]
    }
    seen = [cells[0] for r, cells in rows.items() if "voted" in r and cells[0] != "n/a (not seen)"]
    pairs = sum(int(cell.split("/")[1].split(" ")[0]) for cell in seen)
    assert pairs == 2 * 4 * 11
    assert all(rows[r][2] == "27.3%" for r in rows if "voted" in r or "vouched" in r)
    assert rows["reported by two or more"] == ["n/a (not seen)", "0", "33.3%"]


def test_a_missing_database_is_one_error_line(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "benchmarks/evidence.py", "--db", str(tmp_path / "none.db")],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 1
    assert result.stderr.strip() == f"error: no such database or folder: {tmp_path / 'none.db'}"
    assert not (tmp_path / "none.db").exists()
