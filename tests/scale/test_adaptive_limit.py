"""The adaptive limit on games at once (batch/adaptive.py), driven by a simulated clock."""

from autowerewolf.batch.adaptive import AdaptiveLimit


def window(limit: AdaptiveLimit, now: float, latency_s: float = 1.0, calls: int = 50) -> int:
    """One window of `calls` answered after `latency_s`, the limit fully used; the limit."""
    for _ in range(calls):
        limit.call(latency_s)
    return limit.update(now, in_flight=limit.limit)


def test_it_doubles_while_nothing_slows_down_then_stops_at_its_ceiling() -> None:
    limit = AdaptiveLimit(initial=10, most=100)
    limit.update(0.0, 0)  # opens the first window
    assert [window(limit, t) for t in (1.0, 2.0, 3.0, 4.0)] == [20, 40, 80, 100]


def test_a_window_not_yet_over_changes_nothing() -> None:
    limit = AdaptiveLimit(initial=10)
    limit.update(0.0, 0)
    assert window(limit, 0.5) == 10
    assert window(limit, 1.0) == 20


def test_it_grows_only_when_the_limit_is_what_holds_games_back() -> None:
    limit = AdaptiveLimit(initial=10)
    limit.update(0.0, 0)
    limit.call(1.0)
    assert limit.update(1.0, in_flight=4) == 10


def test_rising_latency_cuts_by_a_tenth_then_growth_is_additive() -> None:
    limit = AdaptiveLimit(initial=100, most=1000)
    limit.update(0.0, 0)
    assert window(limit, 1.0, latency_s=1.0) == 200  # the baseline: 1 s
    assert window(limit, 2.0, latency_s=2.5) == 180  # 2.5 > 2 x 1 s
    assert limit.slow_start is False
    assert window(limit, 3.0, latency_s=1.0) == 180 + 14  # + sqrt(180), rounded up


def test_an_overload_halves_it_once_a_window_however_many_calls_were_refused() -> None:
    limit = AdaptiveLimit(initial=80, least=4)
    limit.update(0.0, 0)
    for _ in range(30):
        limit.overload()
    assert window(limit, 1.0) == 40
    limit.overload()
    assert window(limit, 2.0) == 20
    for t in range(3, 10):
        limit.overload()
        window(limit, float(t))
    assert limit.limit == 4  # never below its floor


def test_a_saturated_event_loop_cuts_it() -> None:
    limit = AdaptiveLimit(initial=100, lag_limit_s=0.25)
    limit.update(0.0, 0)
    limit.lag(0.1)
    limit.lag(0.4)
    assert window(limit, 1.0) == 90
    limit.lag(0.1)
    assert window(limit, 2.0) == 90 + 10


def test_too_few_calls_say_nothing_about_latency() -> None:
    limit = AdaptiveLimit(initial=10, min_calls=10)
    limit.update(0.0, 0)
    window(limit, 1.0, latency_s=1.0)
    assert window(limit, 2.0, latency_s=9.0, calls=3) == 40  # 3 slow calls: no cut


def test_the_baseline_follows_a_server_that_really_became_slower() -> None:
    limit = AdaptiveLimit(initial=10, most=10, drift=0.05, tolerance=1.3)
    limit.update(0.0, 0)
    window(limit, 1.0, latency_s=1.0)
    cuts = [window(limit, float(t), latency_s=1.5) < 10 for t in range(2, 40)]
    assert cuts[0] and not cuts[-1]  # cut at first, then 1.5 s is the new normal
