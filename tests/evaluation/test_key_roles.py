"""The report's key roles are the role table's gods (rules/roles.py): a new god counts in
`key_role_survival` without a second list to update."""

from autowerewolf.evaluation.report.metrics import KEY_ROLES
from autowerewolf.rules.roles import ROLE_TABLE


def test_key_roles_are_exactly_the_gods_of_the_role_table() -> None:
    gods = {role.value for role, spec in ROLE_TABLE.items() if spec.god}
    assert gods and gods == KEY_ROLES
