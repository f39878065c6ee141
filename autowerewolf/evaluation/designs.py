"""What a seat's result row says about its agent design (design_report.py sums it per
(model, agent design)): its blunders (blunders.py) and its Est, Strategy Adaptation's Est_j
(eq. 2): the mean over the observers i who rated seat j in one round of role estimates of
Acc_ij = e_ij^{R_j} / sum_R e_ij^R (`prompts.estimates.likelihood`), one value per round in
which j was rated. A round is the estimates made with one key, by `role_estimates` probes
and by `estimator`-family notes alike. Issue 11's debate metrics compute the same `est`
from probes; `est_rounds` is the one place this module computes it.
"""

from collections import defaultdict
from collections.abc import Mapping, Sequence
from typing import Any

from autowerewolf.evaluation.blunders import blunders
from autowerewolf.players.records import DecisionRecord
from autowerewolf.prompts.estimates import ROLE_ESTIMATES, likelihood
from autowerewolf.rules.events import Event
from autowerewolf.rules.roles import Role


def est_rounds(
    records: Sequence[DecisionRecord], roles: Mapping[str, Role]
) -> dict[str, list[float]]:
    """Seat -> [sum of its Est over rounds, rounds]."""
    rounds: dict[str, dict[str, Mapping[str, Any]]] = defaultdict(dict)
    for r in records:
        if r.step == ROLE_ESTIMATES and r.purpose in ("probe", "note") and r.data:
            rounds[r.key][r.seat] = r.data
    est: dict[str, list[float]] = {}
    for observed in rounds.values():
        rated = sorted({j for data in observed.values() for j in data["estimates"]})
        for j in rated:
            accs = [
                likelihood(d, j, roles[j].value) for d in observed.values() if j in d["estimates"]
            ]
            cell = est.setdefault(j, [0.0, 0.0])
            cell[0] += sum(accs) / len(accs)
            cell[1] += 1
    return est


def design_columns(
    events: Sequence[Event], records: Sequence[DecisionRecord], roles: Mapping[str, Role]
) -> tuple[dict[str, dict[str, list[int]]], dict[str, list[float]]]:
    """Each seat's blunder tallies and Est, as stored in its result row."""
    judged = {
        seat: {metric: [t.count, t.opportunities] for metric, t in tallies.items()}
        for seat, tallies in blunders(events).items()
    }
    return judged, est_rounds(records, roles)
