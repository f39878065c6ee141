"""What a seat's result row says about its agent design (report/designs.py sums it per
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

from autowerewolf.evaluation.chance import random_likelihood
from autowerewolf.evaluation.games.blunders import chances, judgements, tally
from autowerewolf.players.records import DecisionRecord
from autowerewolf.prompts.estimates import ROLE_ESTIMATES, likelihood
from autowerewolf.rules.events import Event
from autowerewolf.rules.roles import Role


def est_rounds(
    records: Sequence[DecisionRecord], roles: Mapping[str, Role]
) -> dict[str, list[float]]:
    """Seat -> [sum of its Est over rounds, rounds, sum of its chance level]: the chance of
    one rater's Acc is that of ratings drawn uniformly from 0-4 over the roles it rated."""
    rounds: dict[str, dict[str, Mapping[str, Any]]] = defaultdict(dict)
    for r in records:
        if r.step == ROLE_ESTIMATES and r.purpose in ("probe", "note") and r.data:
            rounds[r.key][r.seat] = r.data
    est: dict[str, list[float]] = {}
    for observed in rounds.values():
        rated = sorted({j for data in observed.values() for j in data["estimates"]})
        for j in rated:
            raters = [d for d in observed.values() if j in d["estimates"]]
            accs = [likelihood(d, j, roles[j].value) for d in raters]
            chance = [random_likelihood(len(d["estimates"][j])) for d in raters]
            cell = est.setdefault(j, [0.0, 0.0, 0.0])
            cell[0] += sum(accs) / len(accs)
            cell[1] += 1
            cell[2] += sum(chance) / len(chance)
    return est


def design_columns(
    events: Sequence[Event], records: Sequence[DecisionRecord], roles: Mapping[str, Role]
) -> tuple[dict[str, dict[str, list[float]]], dict[str, list[float]]]:
    """Each seat's blunder tallies with their chance levels, and Est, as stored in its
    result row: metric -> [blunders, opportunities, summed chance, judged with options],
    for the metrics it had an opportunity at."""
    found = judgements(events, records)
    odds = chances(found)
    judged = {
        seat: {
            metric: [
                t.count,
                t.opportunities,
                *(round(x, 6) for x in odds.get(seat, {}).get(metric, [0.0, 0.0])),
            ]
            for metric, t in tallies.items()
            if t.opportunities  # rows stay small: a metric without opportunity is left out
        }
        for seat, tallies in tally(found, events).items()
    }
    return judged, est_rounds(records, roles)
