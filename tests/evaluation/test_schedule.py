"""The schedule balances roles and seats, and records contestants in every seating."""

from collections import Counter

from autowerewolf.evaluation.tournament.config import TournamentConfig
from autowerewolf.evaluation.tournament.schedule import plan


def config(games: int, **extra: object) -> TournamentConfig:
    contestants = [
        {"name": n, "kind": k} for n, k in [("h", "heuristic"), ("r", "random"), ("s", "random")]
    ]
    return TournamentConfig.model_validate(
        {"name": "t", "contestants": contestants, "games": games, **extra}
    )


def test_roles_and_seats_are_balanced_over_whole_blocks() -> None:
    games = plan(config(30, mixed_share=1.0))
    roles: Counter[tuple[str, str]] = Counter()
    seats: Counter[tuple[str, str]] = Counter()
    for g in games:
        assert g.setup.deal is not None
        for seat, name in g.seating.contestants.items():
            roles[(name, g.setup.deal[int(seat[1:]) - 1])] += 1
            seats[(name, seat)] += 1
    # 10 mixed blocks of 3 games: every contestant holds every seat once per block.
    assert set(seats.values()) == {10}
    for role in ("werewolf", "villager", "seer", "witch", "hunter", "guard"):
        assert len({roles[(n, role)] for n in "hrs"}) == 1


def test_team_blocks_put_one_contestant_per_camp_then_swap() -> None:
    games = plan(config(6, mixed_share=0.0))
    assert {g.block_kind for g in games} == {"team"}
    first, second = games[0], games[1]
    assert first.setup == second.setup  # same seed and deal: only the holders change
    wolves = [f"P{i + 1:02d}" for i, r in enumerate(first.setup.deal or ()) if r == "werewolf"]
    assert len({first.seating.contestants[s] for s in wolves}) == 1
    assert {first.seating.contestants[s] for s in wolves} != {
        second.seating.contestants[s] for s in wolves
    }


def test_plan_is_deterministic_and_ids_follow_the_index() -> None:
    one, two = plan(config(12)), plan(config(12))
    assert one == two
    assert [g.game_id for g in one][:2] == ["t-00000", "t-00001"]
    assert {g.block_kind for g in one} == {"team", "mixed"}


def test_llm_contestant_override_lands_on_its_seats_only() -> None:
    cfg = TournamentConfig.model_validate(
        {
            "name": "m",
            "games": 2,
            "mixed_share": 1.0,
            "contestants": [
                {"name": "cool", "kind": "llm", "model": {"temperature": 0.1}},
                {"name": "r", "kind": "random"},
            ],
        }
    )
    game = plan(cfg)[0]
    models = game.models
    assert models is not None
    for seat, name in game.seating.contestants.items():
        assert (seat in models.seats) == (name == "cool")
        assert game.seating.kind_of(seat) == ("llm" if name == "cool" else "random")


def test_a_human_contestants_seats_are_human_seats_under_its_name() -> None:
    cfg = TournamentConfig.model_validate(
        {
            "name": "people",
            "games": 3,
            "mixed_share": 1.0,
            "contestants": [{"name": "alice", "kind": "human"}, {"name": "r", "kind": "random"}],
        }
    )
    assert cfg.humans == ["alice"]
    for game in plan(cfg):
        held = {s for s, name in game.seating.contestants.items() if name == "alice"}
        assert held and held == {s for s, kind in game.seating.seats.items() if kind == "human"}
        assert game.seating.tournament == "people" and game.models is None
