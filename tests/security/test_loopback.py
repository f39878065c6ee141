"""The servers' one test of a bind address (autowerewolf/loopback.py): `serve` warns and
needs --expose, `env serve` refuses, for any host that is not this machine only."""

import pytest

from autowerewolf.loopback import is_loopback
from autowerewolf.web.server import check_host


@pytest.mark.parametrize("host", ["localhost", "127.0.0.1", "127.0.0.2", "127.255.0.1", "::1"])
def test_a_loopback_host_is_served_without_a_word(host: str) -> None:
    assert is_loopback(host)
    assert check_host(host, expose=False) is None


@pytest.mark.parametrize(
    "host", ["0.0.0.0", "::", "192.168.1.10", "10.0.0.1", "example.com", "localhost.evil", ""]
)
def test_any_other_host_is_not_loopback(host: str) -> None:
    assert not is_loopback(host)
