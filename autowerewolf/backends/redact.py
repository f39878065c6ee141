"""Keeping API keys out of error texts, records, logs and prompts.

A model server may echo the request's `Authorization` header (or the key) in its error
body, and the OpenAI client puts that body into the exception's message. Every error text
that may be stored, logged, printed or sent back to a model goes through
`redact_secrets` first.

What is recognised: the current values of the environment variables named by a model's
`api_key_env` (registered when the key is read), header values of `Authorization`,
`Proxy-Authorization`, `api-key` and `x-api-key` in the usual `name: value`, `name=value`,
JSON and Python-dict spellings, and `Bearer` tokens anywhere. A key the server
transforms (truncated, encoded) and that no header pattern frames cannot be recognised.
"""

import logging
import os
import re

REDACTED = "[REDACTED]"
# Shorter values are not secrets worth the noise of replacing them everywhere.
MIN_SECRET_CHARS = 4

_secret_envs: set[str] = set()

_QUOTE = r"[\"']?"
_VALUE = r"(?P<value>(?!\[REDACTED\])[^\s\"',;}\]]+)"
_HEADER_VALUE = re.compile(
    r"(?P<name>(?:proxy-)?authorization|x-api-key|api[-_]?key)"
    rf"(?P<sep>{_QUOTE}\s*[:=]\s*{_QUOTE})"
    r"(?P<scheme>(?:bearer|basic|token)\s+)?" + _VALUE,
    re.IGNORECASE,
)
# "Basic" alone is an English word: only Bearer tokens are recognised outside a header.
_BEARER = re.compile(r"\b(?P<scheme>bearer)\s+" + _VALUE, re.IGNORECASE)


def register_secret_env(name: str) -> None:
    """Redact the value of environment variable `name` from now on."""
    _secret_envs.add(name)


def _secret_values() -> list[str]:
    values = {os.environ.get(name, "").strip() for name in _secret_envs}
    # Longest first, so a key that contains another one is replaced whole.
    return sorted((v for v in values if len(v) >= MIN_SECRET_CHARS), key=len, reverse=True)


def redact_secrets(text: str) -> str:
    """`text` with API keys and authorization header values replaced by `[REDACTED]`."""
    for value in _secret_values():
        text = text.replace(value, REDACTED)
    text = _HEADER_VALUE.sub(lambda m: f"{m['name']}{m['sep']}{m['scheme'] or ''}{REDACTED}", text)
    return _BEARER.sub(lambda m: f"{m['scheme']} {REDACTED}", text)


class RedactingFormatter(logging.Formatter):
    """A log formatter whose output (message, arguments and traceback) is redacted."""

    def format(self, record: logging.LogRecord) -> str:
        return redact_secrets(super().format(record))
