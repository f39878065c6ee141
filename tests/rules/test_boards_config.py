"""RULES §1: boards, configuration validation, seats, names and the seeded deal."""

from collections import Counter

import pytest

from autowerewolf.rules.config import BOARDS, ConfigError, make_config
from autowerewolf.rules.engine import new_game
from autowerewolf.rules.events import Audience, EventKind
from autowerewolf.rules.random_play import play_random_game
from autowerewolf.rules.roles import Role
from autowerewolf.rules.state import BadgeStatus, Step
from autowerewolf.rules.variants import WinMode
from tests.rules.rules_helpers import Game


def counts(board: str) -> Counter:
    return Counter(make_config(board).roles)


def test_rules_1_board_12a_is_default():
    """RULES §1: 12-A (default) = 4 wolves, 4 villagers, Seer, Witch, Hunter, Guard."""
    assert make_config().board == "12-A"
    assert counts("12-A") == Counter(
        {
            Role.WEREWOLF: 4,
            Role.VILLAGER: 4,
            Role.SEER: 1,
            Role.WITCH: 1,
            Role.HUNTER: 1,
            Role.GUARD: 1,
        }
    )


def test_rules_1_board_12b():
    """RULES §1: 12-B = 4 wolves, 4 villagers, Seer, Witch, Hunter, Idiot."""
    assert counts("12-B") == Counter(
        {
            Role.WEREWOLF: 4,
            Role.VILLAGER: 4,
            Role.SEER: 1,
            Role.WITCH: 1,
            Role.HUNTER: 1,
            Role.IDIOT: 1,
        }
    )


def test_rules_1_board_9_standard():
    """RULES §1: 9-standard = 3 wolves, 3 villagers, Seer, Witch, Hunter; sheriff on."""
    assert counts("9-standard") == Counter(
        {Role.WEREWOLF: 3, Role.VILLAGER: 3, Role.SEER: 1, Role.WITCH: 1, Role.HUNTER: 1}
    )
    assert make_config("9-standard").variants.sheriff_enabled


def test_rules_1_board_8_arena():
    """RULES §1/§3/§6: 8-arena = 2 wolves, 4 villagers, Seer, Guard-as-Doctor (no repeat
    ban), no sheriff, no witch, majority exile."""
    config = make_config("8-arena")
    assert Counter(config.roles) == Counter(
        {Role.WEREWOLF: 2, Role.VILLAGER: 4, Role.SEER: 1, Role.GUARD: 1}
    )
    v = config.variants
    assert not v.guard_no_repeat
    assert not v.sheriff_enabled
    assert v.exile_needs_majority
    assert v.win_mode is WinMode.PARITY


def test_rules_3_sheriff_default_on_for_12_and_9_player_boards():
    """RULES §3: sheriff_enabled defaults on for 12- and 9-player boards, off for 8-arena."""
    for board in ("12-A", "12-B", "9-standard"):
        state, _ = new_game(make_config(board))
        assert state.badge is BadgeStatus.UNDECIDED
    state, _ = new_game(make_config("8-arena"))
    assert state.badge is BadgeStatus.DISABLED


def test_rules_variant_defaults():
    """RULES §2-§8 [D] flags: defaults match the rulebook."""
    v = make_config().variants
    assert v.allow_wolf_self_knife
    assert not v.witch_can_self_heal_n1
    assert not v.witch_both_potions_one_night
    assert v.guard_can_self_guard and v.guard_no_repeat
    assert v.same_guard_same_save_kills
    assert v.sheriff_vote_weight == 1.5
    assert v.badge_swallow == "single"
    assert not v.exile_needs_majority
    assert v.allow_wolf_self_explode
    assert not v.hunter_can_shoot_if_poisoned
    assert not v.idiot_flip_keeps_badge
    assert not v.reveal_role_on_death
    assert v.win_mode is WinMode.SIDE


def test_rules_1_custom_role_list_is_validated_and_accepted():
    """RULES §1: a valid custom role list makes a custom board."""
    config = make_config(roles=["werewolf", "Villager", " seer ", "villager"])
    assert config.board == "custom"
    assert Counter(config.roles) == Counter({Role.WEREWOLF: 1, Role.VILLAGER: 2, Role.SEER: 1})
    state, _ = play_random_game(config)
    assert state.step == Step.GAME_OVER


@pytest.mark.parametrize(
    ("kwargs", "needle"),
    [
        ({"roles": ["werewolf", "villager", "wizard"]}, "unknown role 'wizard'"),
        ({"roles": ["villager", "villager", "seer"]}, "no werewolf"),
        ({"roles": ["werewolf", "werewolf", "villager", "seer"]}, "2 wolves against 2 good"),
        ({"roles": ["werewolf", "werewolf", "villager"]}, "wolves must be fewer"),
        ({"roles": ["werewolf", "seer", "seer", "villager"]}, "more than once: seer"),
        ({"board": "13-Z"}, "unknown board '13-Z'"),
        ({"variants": {"allow_wolf_flying": True}}, "unknown rule flag 'allow_wolf_flying'"),
        ({"variants": {"sheriff_vote_weight": 0}}, "sheriff_vote_weight"),
        ({"variants": {"badge_swallow": "triple"}}, "badge_swallow"),
        ({"variants": {"win_mode": "everyone"}}, "win_mode"),
        ({"variants": {"guard_no_repeat": "maybe"}}, "guard_no_repeat"),
        ({"max_days": 0}, "max_days"),
        ({"name_pool": ["Ann", "Bob"]}, "name pool"),
    ],
)
def test_rules_1_bad_config_raises_config_error_naming_the_problem(kwargs, needle):
    """RULES §1: unknown role, impossible board, wolves >= good, unknown flag or bad value
    -> ConfigError whose message names the problem."""
    with pytest.raises(ConfigError) as err:
        make_config(**kwargs)
    assert needle in str(err.value)


def test_rules_1_config_error_is_a_value_error():
    """RULES §1: ConfigError is a ValueError (callers may catch either)."""
    assert issubclass(ConfigError, ValueError)


def test_rules_1_seats_and_names_drawn_from_pool():
    """RULES §1: seats P01..PNN, display names drawn (seeded) from a configurable pool."""
    pool = [f"N{i}" for i in range(20)]
    a, _ = new_game(make_config(seed=3, name_pool=pool))
    b, _ = new_game(make_config(seed=3, name_pool=pool))
    assert [s.id for s in a.seats] == [f"P{i:02d}" for i in range(1, 13)]
    assert [s.name for s in a.seats] == [s.name for s in b.seats]
    names = [s.name for s in a.seats]
    assert len(set(names)) == 12 and set(names) <= set(pool)
    plain, _ = new_game(make_config(seed=3, name_pool=[]))
    assert [s.name for s in plain.seats] == [s.id for s in plain.seats]


def test_rules_1_deal_is_seeded_and_keeps_the_board():
    """RULES §1: roles dealt by the game's own seeded RNG; same seed -> same deal,
    different seeds -> different deals; the global `random` is not used."""
    import random

    config = make_config(seed=42)
    random.seed(1)
    a, _ = new_game(config)
    random.seed(2)
    b, _ = new_game(config)
    assert [s.role for s in a.seats] == [s.role for s in b.seats]
    deals = {tuple(s.role for s in new_game(make_config(seed=k))[0].seats) for k in range(10)}
    assert len(deals) > 1
    for board in BOARDS:
        state, _ = new_game(make_config(board, seed=7))
        assert Counter(s.role for s in state.seats) == Counter(BOARDS[board].roles)


def test_rules_1_determinism_same_seed_identical_events():
    """RULES §1: same seed -> identical event list; different seed -> different deal."""
    for board in BOARDS:
        s1, e1 = play_random_game(make_config(board, seed=11))
        s2, e2 = play_random_game(make_config(board, seed=11))
        assert e1 == e2 and s1 == s2
        _, e3 = play_random_game(make_config(board, seed=12))
        deal = [e for e in e1 if e.kind is EventKind.DEAL]
        assert deal != [e for e in e3 if e.kind is EventKind.DEAL]


def test_rules_1_wolves_know_each_other_nobody_else_knows_anything():
    """RULES §1: each seat learns its own role; wolves learn the wolf team; nothing else."""
    g = Game()
    roles = [e for e in g.events if e.kind is EventKind.ROLE]
    assert all(e.audience is Audience.SEAT for e in roles)
    assert {e.seat: e.value for e in roles} == {s.id: s.role for s in g.state.seats}
    (team,) = g.of(EventKind.WOLF_TEAM)
    assert team.audience is Audience.WOLVES
    assert team.targets == ("P01", "P02", "P03", "P04")
    (deal,) = g.of(EventKind.DEAL)
    assert deal.audience is Audience.OMNISCIENT


def test_rules_1_game_opens_with_night_1():
    """RULES §1: the game opens with Night 1 (wolves first); Night N precedes Day N."""
    g = Game()
    assert g.state.day == 1 and g.step == Step.WOLVES
    assert g.of(EventKind.NIGHT_START)[0].day == 1
    g.night("P05").no_election()
    assert g.state.day == 1
    g.speak_all().vote()
    assert g.state.day == 2 and g.step == Step.WOLVES


def test_rules_1_roles_stay_hidden_on_death_by_default():
    """RULES §1 [D]: a death (night or exile) reveals no role."""
    g = Game().night("P05").no_election()
    (ann,) = g.of(EventKind.DEATHS_ANNOUNCED)
    assert ann.text is None
    g.speak_all().exile_by("P06", ["P01", "P02", "P03"])
    (ex,) = [e for e in g.of(EventKind.EXILE) if e.target == "P06"]
    assert ex.text is None
    assert not g.state.seat("P05").revealed and not g.state.seat("P06").revealed


def test_rules_1_reveal_role_on_death_variant():
    """RULES §1 [V] reveal_role_on_death: announcements and exiles name the role."""
    g = Game(variants={"reveal_role_on_death": True}).night("P05").no_election()
    (ann,) = g.of(EventKind.DEATHS_ANNOUNCED)
    assert ann.text == "P05=villager"


def test_rules_1_names_distinct_even_with_duplicates_in_pool():
    """RULES §1: display names drawn from the pool are distinct per seat, even when the pool
    repeats a name (it needs enough distinct names)."""
    pool = ["Ann"] * 20 + [f"N{i}" for i in range(11)]
    for seed in range(20):
        state, _ = new_game(make_config(seed=seed, name_pool=pool))
        assert len({s.name for s in state.seats}) == 12
