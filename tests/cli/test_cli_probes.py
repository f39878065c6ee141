"""`--probes` on play, batch and tournament, `probes:` in game and tournament files; a
bidding game with every probe plays to the end; an unknown probe is one `error:` line."""

import json
from pathlib import Path

import pytest

from tests.fixed import HEX_SECRET
from tests.graph.graph_helpers import assert_user_error, cli, load_record

ALL = "pre_vote,speech_votes,role_estimates"


@pytest.mark.parametrize("players", ["random", "heuristic"])
def test_play_a_bidding_game_with_every_probe(tmp_path: Path, players: str) -> None:
    db = tmp_path / "g.db"
    result = cli("play", "--players", players, "--variant", "discussion=bidding",
                 "--seed", 3, "--secret", HEX_SECRET,
                 "--probes", ALL, "--json", "--db", db, "--game-id", "p")  # fmt: skip
    assert result.exit_code == 0, result.stderr
    summary = json.loads(result.stdout)
    assert summary["finished"] and summary["board"] == "12-A"
    totals = summary["seat_totals"].values()
    assert sum(t["probes"] for t in totals) > 0 and all(t["decisions"] for t in totals)
    record = load_record(db, "p")
    assert record.seating.probes == tuple(ALL.split(","))
    assert record.game.config.variants.discussion == "bidding"
    assert {r.step for r in record.records if r.purpose == "probe"} == set(ALL.split(","))
    assert any(r.step == "discussion_bid" for r in record.records)


def test_unknown_probe_is_one_error_line(tmp_path: Path) -> None:
    db = tmp_path / "g.db"
    assert_user_error(cli("play", "--players", "random", "--probes", "pre_vote,mind_reading",
                          "--db", db), "unknown probe 'mind_reading'")  # fmt: skip
    assert_user_error(cli("batch", "--players", "random", "--probes", "x", "--db", db), "'x'")
    game_file = tmp_path / "game.yaml"
    game_file.write_text("probes: [pre_vote, nope]\n", encoding="utf-8")
    assert_user_error(cli("play", "--config", game_file, "--db", db), "unknown probe 'nope'")
    tournament = tmp_path / "t.yaml"
    tournament.write_text(
        "name: t\ngames: 2\nprobes: [nope]\ncontestants:\n"
        "  - {name: a, kind: random}\n  - {name: b, kind: heuristic}\n",
        encoding="utf-8",
    )
    assert_user_error(cli("tournament", tournament, "--out", tmp_path / "t"), "unknown probe")
    assert not db.exists()


def test_game_file_probes_are_saved_with_the_game(tmp_path: Path) -> None:
    db = tmp_path / "g.db"
    game_file = tmp_path / "game.yaml"
    # A fixed secret: a fresh one sometimes deals a game whose wolves explode before any speech.
    game_file.write_text(
        f"board: 9-standard\nseed: 3\nsecret: '{HEX_SECRET}'\nprobes: [speech_votes]\n",
        encoding="utf-8",
    )
    result = cli("play", "--players", "random", "--config", game_file, "--db", db,
                 "--game-id", "f")  # fmt: skip
    assert result.exit_code == 0, result.stderr
    record = load_record(db, "f")
    assert record.seating.probes == ("speech_votes",)
    assert {r.step for r in record.records if r.purpose == "probe"} == {"speech_votes"}
