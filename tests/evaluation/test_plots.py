"""The report's figures: the Pareto frontier of cost against rating, by hand."""

from autowerewolf.evaluation.report.plots import pareto_front


def test_pareto_front_by_hand() -> None:
    # (cost, rating): the free 0.1 and the dearer 0.9 are not beaten on both; 0.5 at cost
    # 2 is beaten by 0.9 at cost 1, and the second free point by the first.
    points = [(0.0, 0.1), (2.0, 0.5), (1.0, 0.9), (0.0, -0.3), (3.0, 1.2)]
    assert pareto_front(points) == [0, 2, 4]
    assert pareto_front([(0.0, 1.0), (0.0, 1.0)]) == [0]  # ties: one point draws the line
