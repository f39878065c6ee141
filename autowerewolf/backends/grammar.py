"""A compact JSON grammar (llama.cpp's GBNF) for the answer schemas the players build.

llama-server turns a `response_format` schema into a grammar that lets the model write
whitespace anywhere JSON allows it, and the embedded model spends it: a vote came back as a
fenced, indented block of 17-19 tokens where `{"choice":"P06"}` is 9 (docs/benchmarks.md).
This grammar admits exactly one spelling of each answer, the compact one, with the
properties in the schema's order. It covers the shapes pydantic writes for our schemas
(objects whose properties are all required, strings with an enum, a const or a length
bound, small integer ranges, arrays, `$defs` references); any other shape raises
`UnsupportedSchema` and the caller keeps the server's own conversion."""

import json
from typing import Any
from weakref import WeakKeyDictionary

from pydantic import BaseModel

# One character of a JSON string, as llama.cpp's own converter spells it: anything but a
# quote, a backslash or a control character, or an escape.
CHAR_RULE = '[^"\\\\\\x7F\\x00-\\x1F] | [\\\\] (["\\\\/bfnrt] | "u" [0-9a-fA-F]{4})'
# The widest integer range spelled out as alternatives (role estimates use 0-4).
MAX_INTEGER_CHOICES = 64


class UnsupportedSchema(ValueError):
    """The schema has a shape this grammar does not cover."""


def literal(text: str) -> str:
    """A GBNF literal matching `text` exactly."""
    escaped = text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
    return f'"{escaped}"'


def json_literal(value: object) -> str:
    """A GBNF literal matching `value` written as compact JSON."""
    return literal(json.dumps(value, ensure_ascii=False, separators=(",", ":")))


def compact_json_grammar(schema: dict[str, Any]) -> str:
    """The GBNF grammar of `schema`'s compact JSON (a pydantic `model_json_schema()`)."""
    definitions: dict[str, Any] = schema.get("$defs", {})
    rules: dict[str, str] = {}

    def reference(ref: str) -> str:
        name = ref.rsplit("/", 1)[-1]
        if name not in definitions:
            raise UnsupportedSchema(f"unknown reference {ref}")
        rule = "def-" + "".join(c if c.isalnum() else "-" for c in name)
        if rule not in rules:
            rules[rule] = ""  # reserved first: a recursive reference stops here
            rules[rule] = body(definitions[name])
        return rule

    def string(node: dict[str, Any]) -> str:
        if "pattern" in node:
            raise UnsupportedSchema("a string with a pattern")
        low, high = node.get("minLength", 0), node.get("maxLength")
        rules["char"] = CHAR_RULE
        repeat = f"{{{low},{high}}}" if high is not None else f"{{{low},}}"
        return f'"\\"" char{repeat} "\\""'

    def integer(node: dict[str, Any]) -> str:
        low, high = node.get("minimum"), node.get("maximum")
        if low is None or high is None or high - low >= MAX_INTEGER_CHOICES:
            raise UnsupportedSchema("an integer without a small range")
        return "(" + " | ".join(json_literal(n) for n in range(low, high + 1)) + ")"

    def obj(node: dict[str, Any]) -> str:
        properties: dict[str, Any] = node.get("properties", {})
        if set(node.get("required", [])) != set(properties):
            raise UnsupportedSchema("an object with optional properties")
        members = [f'{json_literal(key)} ":" {body(sub)}' for key, sub in properties.items()]
        return " ".join(['"{"', ' "," '.join(members), '"}"']) if members else '"{}"'

    def array(node: dict[str, Any]) -> str:
        item = body(node["items"])
        low, high = node.get("minItems", 0), node.get("maxItems")
        if high is not None and high <= 1:
            items = item
        else:
            more = f"{{{max(low - 1, 0)},{'' if high is None else high - 1}}}"
            items = f'{item} ("," {item}){more}'
        return f'"[" {items} "]"' if low > 0 else f'"[" ({items})? "]"'

    def body(node: dict[str, Any]) -> str:
        if "$ref" in node:
            return reference(node["$ref"])
        if "const" in node:
            return json_literal(node["const"])
        if "enum" in node:
            return "(" + " | ".join(json_literal(v) for v in node["enum"]) + ")"
        kind = node.get("type")
        if kind == "string":
            return string(node)
        if kind == "integer":
            return integer(node)
        if kind == "object":
            return obj(node)
        if kind == "array" and "items" in node:
            return array(node)
        raise UnsupportedSchema(f"a node of type {kind or 'unknown'}")

    root = body(schema)
    return "\n".join([f"root ::= {root}", *(f"{name} ::= {rule}" for name, rule in rules.items())])


# Each answer class's grammar (None: not covered), built once per class. Weakly keyed, so a
# class dropped from the bounded schema caches (prompts/answers.py) is not kept alive here.
_GRAMMARS: "WeakKeyDictionary[type[BaseModel], str | None]" = WeakKeyDictionary()


def grammar_of_model(model: type[BaseModel]) -> str | None:
    """The compact grammar of a pydantic answer class, or None if its shape is not covered."""
    if model not in _GRAMMARS:
        try:
            _GRAMMARS[model] = compact_json_grammar(model.model_json_schema())
        except UnsupportedSchema:
            _GRAMMARS[model] = None
    return _GRAMMARS[model]


def compact_grammar(response_format: Any) -> str | None:
    """The compact grammar of a structured-output request's `response_format` (a pydantic
    class, as LangChain passes it, or a `json_schema` dict), or None where there is none to
    give (no schema, or a shape this grammar does not cover)."""
    if isinstance(response_format, type) and issubclass(response_format, BaseModel):
        return grammar_of_model(response_format)
    if not isinstance(response_format, dict) or response_format.get("type") != "json_schema":
        return None
    schema = (response_format.get("json_schema") or {}).get("schema")
    if not isinstance(schema, dict):
        return None
    try:
        return compact_json_grammar(schema)
    except UnsupportedSchema:
        return None
