"""Whether a host a server binds to reaches this machine only: `localhost` or a loopback
address (127.0.0.0/8, ::1). The web server (`serve`) warns and needs `--expose` for any
other; the OpenEnv server, which has no authentication, refuses any other."""

import ipaddress


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False
