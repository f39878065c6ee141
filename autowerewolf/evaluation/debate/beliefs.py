"""What one game's role estimates say about deduction and deception (docs/evaluation.md,
"Debate and belief metrics"). Each `role_estimates` round (one key) holds, per observer i,
ratings e_ij^R in 0..4 for every other living seat j and every role R of the board;
Acc_ij = e_ij^{R_j} / sum_R e_ij^R (prompts/estimates.py, `likelihood`).

* `est` (Strategy Adaptation, eq. 2): Est_j = the mean of Acc_ij over the observers i who
  rated j in that round; credited to j: how well the table reads that seat.
* `irp_belief`: for a good-camp observer, whether its top wolf suspect (the highest
  werewolf likelihood; a tie shares the credit, all zeros is a miss) is a wolf; credited to
  the observer. IRP from beliefs rather than ballots.
* `deception`: for a wolf, 1 - the mean werewolf likelihood good-camp observers give it;
  credited to the wolf: how little the good camp suspects it.

Rounds whose estimate failed (no data) are left out. Beside each, the chance level: what
estimates drawn uniformly from 0-4 would score (evaluation/chance.py).
"""

from collections.abc import Mapping, Sequence
from typing import Any

from autowerewolf.evaluation.chance import random_likelihood, random_top_suspect
from autowerewolf.players.records import DecisionRecord
from autowerewolf.prompts.estimates import ROLE_ESTIMATES, likelihood
from autowerewolf.rules.roles import Role, on_wolf_side

# seat -> metric -> [numerator, denominator, chance numerator, its denominator]: the chance
# parts cover the contributions whose chance level is known.
Contributions = dict[str, dict[str, list[float]]]
WOLF = Role.WEREWOLF.value


def add(
    seats: Contributions,
    seat: str,
    metric: str,
    num: float,
    den: float = 1.0,
    chance: float | None = None,
) -> None:
    """Add one contribution; `chance` is what a random player would have scored in place
    of `num` (None: unknown)."""
    cell = seats.setdefault(seat, {}).setdefault(metric, [0.0, 0.0, 0.0, 0.0])
    cell[0] += num
    cell[1] += den
    if chance is not None:
        cell[2] += chance
        cell[3] += den


def estimate_rounds(records: Sequence[DecisionRecord]) -> list[dict[str, dict[str, Any]]]:
    """Each round of role estimates: observer -> its answer's data."""
    rounds: dict[str, dict[str, dict[str, Any]]] = {}
    for r in records:
        if r.step == ROLE_ESTIMATES and r.purpose == "probe" and r.data is not None:
            rounds.setdefault(r.key, {})[r.seat] = r.data
    return list(rounds.values())


def _top_suspect_hit(data: Mapping[str, Any], roles: Mapping[str, Role]) -> float:
    suspicion = {j: likelihood(data, j, WOLF) for j in data["estimates"]}
    top = max(suspicion.values(), default=0.0)
    if top == 0:
        return 0.0
    tied = [j for j, v in suspicion.items() if v == top]
    return sum(on_wolf_side(roles[j]) for j in tied) / len(tied)


def add_beliefs(
    seats: Contributions, records: Sequence[DecisionRecord], roles: Mapping[str, Role]
) -> None:
    """Add the game's est, irp_belief and deception contributions to `seats`."""
    for observed in estimate_rounds(records):
        good = {i: d for i, d in observed.items() if not on_wolf_side(roles[i])}
        rated = {j for data in observed.values() for j in data["estimates"]}
        for j in sorted(rated):
            raters = [d for d in observed.values() if j in d["estimates"]]
            accs = [likelihood(d, j, roles[j].value) for d in raters]
            odds = [random_likelihood(len(d["estimates"][j])) for d in raters]
            add(seats, j, "est", sum(accs) / len(accs), chance=sum(odds) / len(odds))
            if on_wolf_side(roles[j]):
                seen = [d for d in good.values() if j in d["estimates"]]
                if seen:
                    fooled = 1 - sum(likelihood(d, j, WOLF) for d in seen) / len(seen)
                    odds = [random_likelihood(len(d["estimates"][j])) for d in seen]
                    add(seats, j, "deception", fooled, chance=1 - sum(odds) / len(odds))
        for i, data in sorted(good.items()):
            rated_by_i = data["estimates"]
            wolves = sum(on_wolf_side(roles[j]) for j in rated_by_i)
            chance = random_top_suspect(len(rated_by_i), wolves)
            add(seats, i, "irp_belief", _top_suspect_hit(data, roles), chance=chance)
