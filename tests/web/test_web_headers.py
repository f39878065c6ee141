"""The security headers middleware on its own: every answer gets each header once, with our
value, a failure no handler caught included (the running server: test_web_hardening.py)."""

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response
from starlette.routing import Route
from starlette.testclient import TestClient

from autowerewolf.web.headers import SECURITY_HEADERS, SecurityHeaders


async def framable(request: Request) -> Response:
    return PlainTextResponse("hi", headers={"X-Frame-Options": "SAMEORIGIN"})


async def broken(request: Request) -> Response:
    raise RuntimeError("a bug")


APP = Starlette(
    routes=[Route("/framable", framable), Route("/broken", broken)],
    middleware=[Middleware(SecurityHeaders)],
)


def security_headers_of(response: object) -> dict[str, list[str]]:
    headers = response.headers  # type: ignore[attr-defined]
    return {name.decode(): headers.get_list(name.decode()) for name in SECURITY_HEADERS}


def test_every_answer_gets_each_header_once_with_our_value() -> None:
    ours = {name.decode(): [value.decode()] for name, value in SECURITY_HEADERS.items()}
    with TestClient(APP, raise_server_exceptions=False) as client:
        replaced = client.get("/framable")
        assert replaced.text == "hi" and security_headers_of(replaced) == ours
        assert security_headers_of(client.get("/nowhere")) == ours  # the router's 404
        failed = client.get("/broken")
        assert failed.status_code == 500 and security_headers_of(failed) == ours
        assert failed.json() == {"detail": "internal server error"}
