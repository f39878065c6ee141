"""How many games a batch process plays at once, adapted to what the CPU and the model
servers take: an AIMD controller in the manner of TCP Vegas.

Every `window_s` the runner closes a window of what it saw: the model calls' latencies
(measured at the gate, so a call queued behind `max_in_flight` or `requests_per_s` counts
its wait), overloads (a 429, a timeout: the server said no) and the event loop's lag (how
late a timer fires: the process's core is saturated). Then:

- an overload halves the limit (once per window, however many calls were refused);
- a loop lag above `lag_limit_s`, or a mean latency above `tolerance` x the baseline (the
  lowest window mean seen, forgotten by `drift` a window so that a server whose latency
  really changed is followed), cuts it by a tenth;
- otherwise, if the limit is what holds the games back (as many in flight as it allows),
  it grows: doubling until the first cut ("slow start"), then by its square root a window.

No PyPI package does this and is kept (the AIMD ones are single-author 0.1 releases), so
this is the controller, small and clocked by its caller (tests drive it with a simulated
clock)."""

import math
from dataclasses import dataclass, field


@dataclass
class Window:
    """What one window saw."""

    latencies_s: float = 0.0
    calls: int = 0
    overloads: int = 0
    lag_s: float = 0.0


@dataclass
class AdaptiveLimit:
    initial: int = 50
    least: int = 4
    most: int = 1000
    window_s: float = 1.0
    tolerance: float = 2.0
    lag_limit_s: float = 0.5
    drift: float = 0.01
    min_calls: int = 10  # fewer calls in a window: their mean says nothing yet
    limit: int = field(init=False)
    baseline_s: float | None = field(default=None, init=False)
    slow_start: bool = field(default=True, init=False)
    window: Window = field(default_factory=Window, init=False)
    _opened_at: float | None = field(default=None, init=False)

    def __post_init__(self) -> None:
        self.limit = max(self.least, min(self.initial, self.most))

    def call(self, latency_s: float) -> None:
        self.window.latencies_s += latency_s
        self.window.calls += 1

    def overload(self) -> None:
        self.window.overloads += 1

    def lag(self, lag_s: float) -> None:
        self.window.lag_s = max(self.window.lag_s, lag_s)

    def update(self, now: float, in_flight: int) -> int:
        """Close the window if `window_s` has passed since it opened, adjusting the limit
        for `in_flight` games running now; the limit."""
        if self._opened_at is None:
            self._opened_at = now
        if now - self._opened_at < self.window_s:
            return self.limit
        seen, self.window, self._opened_at = self.window, Window(), now
        if seen.overloads:
            return self._cut(0.5)
        mean_s = seen.latencies_s / seen.calls if seen.calls >= self.min_calls else None
        if mean_s is not None:
            drifted = None if self.baseline_s is None else self.baseline_s * (1 + self.drift)
            self.baseline_s = mean_s if drifted is None else min(drifted, mean_s)
        congested = seen.lag_s > self.lag_limit_s or (
            mean_s is not None
            and self.baseline_s is not None
            and mean_s > self.tolerance * self.baseline_s
        )
        if congested:
            return self._cut(0.9)
        if in_flight >= self.limit:
            grown = self.limit * 2 if self.slow_start else self.limit + math.sqrt(self.limit)
            self.limit = min(self.most, math.ceil(grown))
        return self.limit

    def _cut(self, factor: float) -> int:
        self.slow_start = False
        self.limit = max(self.least, math.floor(self.limit * factor))
        return self.limit
