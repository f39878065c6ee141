"""The answer schemas as every provider's strict mode takes them, and the bounds they leave
out enforced on our side.

A pydantic answer class (prompts/answers.py) bounds its texts (`maxLength`), its lists
(`minItems`/`maxItems`) and its ratings (`minimum`/`maximum`). OpenAI's strict mode, vLLM's
xgrammar and other providers refuse some of those keywords, and each refuses a different
set. The schema sent is the subset all of them accept: every property required (an
optional one as nullable), `additionalProperties: false` on every object, references
inlined, a one-value `const` as an `enum`, a small integer range as an `enum` of its values,
and no length, pattern, format or numeric bound. The answer is bounded on the way back
(`bounded_answer`): a text or a list past its bound is cut to it, a rating out of range
moved to its nearest end, each named in a note the seat's record keeps; what no cut can
mend (too few items) fails the answer's validation, and the seat is asked again.
"""

from collections.abc import Mapping
from typing import Any
from weakref import WeakKeyDictionary

from pydantic import BaseModel

from autowerewolf.backends.grammar import MAX_INTEGER_CHOICES, UnsupportedSchema

# Keywords outside the common strict subset: bounds, checked on our side after parsing, and
# annotations no decoder needs.
BOUND_KEYWORDS = frozenset(
    {
        "maxLength",
        "minLength",
        "pattern",
        "format",
        "minimum",
        "maximum",
        "exclusiveMinimum",
        "exclusiveMaximum",
        "multipleOf",
        "minItems",
        "maxItems",
        "uniqueItems",
        "minProperties",
        "maxProperties",
    }
)
_DROPPED = BOUND_KEYWORDS | {"default", "examples", "$defs", "$schema"}
_NULL = {"type": "null"}


def strict_json_schema(schema: Mapping[str, Any]) -> dict[str, Any]:
    """`schema` (a pydantic `model_json_schema()`) in the common strict subset."""
    definitions: Mapping[str, Any] = schema.get("$defs", {})

    def convert(raw: Mapping[str, Any], inside: frozenset[str]) -> dict[str, Any]:
        node, inside = _merged(raw, definitions, inside)
        if "allOf" in node or "not" in node or "if" in node:
            raise UnsupportedSchema("a schema combination beyond anyOf")
        out: dict[str, Any] = {}
        for key, value in node.items():
            if key in _DROPPED:
                continue
            if key == "properties":
                out[key] = {name: convert(sub, inside) for name, sub in value.items()}
            elif key == "items":
                out[key] = convert(value, inside)
            elif key in ("anyOf", "oneOf"):
                out["anyOf"] = [convert(option, inside) for option in value]
            elif key == "additionalProperties" and value is not False:
                raise UnsupportedSchema("an object with open properties")
            else:
                out[key] = value
        if "const" in out:
            out["enum"] = [out.pop("const")]
        if out.get("type") == "integer" and "enum" not in out:
            out.update(_small_range(node))
        if out.get("type") == "object" or "properties" in out:
            properties: dict[str, Any] = out.setdefault("properties", {})
            required = set(node.get("required", ()))
            for name in properties:
                if name not in required and not _accepts_null(properties[name]):
                    properties[name] = {"anyOf": [properties[name], _NULL]}
            out["type"] = "object"
            out["required"] = list(properties)
            out["additionalProperties"] = False
        return out

    return convert(schema, frozenset())


def _small_range(node: Mapping[str, Any]) -> dict[str, Any]:
    """A rating's few values as an enum (the decoder still keeps it in range), or nothing."""
    low, high = node.get("minimum"), node.get("maximum")
    if isinstance(low, int) and isinstance(high, int) and high - low < MAX_INTEGER_CHOICES:
        return {"enum": list(range(low, high + 1))}
    return {}


def _merged(
    node: Mapping[str, Any], definitions: Mapping[str, Any], inside: frozenset[str]
) -> tuple[dict[str, Any], frozenset[str]]:
    """The node with its reference (or its single `allOf`) merged in, its own keywords
    winning, and the references followed to reach it (`inside`)."""
    merged = dict(node)
    while "$ref" in merged or len(merged.get("allOf", ())) == 1:
        if "$ref" in merged:
            name = str(merged.pop("$ref")).rsplit("/", 1)[-1]
            if name not in definitions:
                raise UnsupportedSchema(f"unknown reference {name}")
            if name in inside:
                raise UnsupportedSchema(f"recursive reference {name}")
            inside = inside | {name}
            merged = {**definitions[name], **merged}
        else:
            merged = {**merged.pop("allOf")[0], **merged}
    return merged, inside


def _accepts_null(node: Mapping[str, Any]) -> bool:
    kind = node.get("type")
    if kind == "null" or (isinstance(kind, list) and "null" in kind):
        return True
    return any(_accepts_null(option) for option in node.get("anyOf", ()))


# Each answer class's pydantic schema and strict schema, built once per class. Weakly keyed,
# so a class dropped from the bounded schema caches (prompts/answers.py) is not kept here.
_SCHEMAS: "WeakKeyDictionary[type[BaseModel], tuple[dict[str, Any], dict[str, Any]]]"
_SCHEMAS = WeakKeyDictionary()


def _schemas(model: type[BaseModel]) -> tuple[dict[str, Any], dict[str, Any]]:
    if model not in _SCHEMAS:
        original = model.model_json_schema()
        _SCHEMAS[model] = (original, strict_json_schema(original))
    return _SCHEMAS[model]


def strict_schema(model: type[BaseModel]) -> dict[str, Any]:
    """The strict schema of an answer class (read only: it is shared)."""
    return _schemas(model)[1]


def bounded_answer(model: type[BaseModel], data: object) -> tuple[BaseModel, tuple[str, ...]]:
    """The answer `data` (parsed JSON) as an instance of `model`, cut to the bounds of its
    pydantic schema, and a note per cut. Raises pydantic's ValidationError when it does not
    fit even so."""
    original = _schemas(model)[0]
    definitions: Mapping[str, Any] = original.get("$defs", {})
    notes: list[str] = []

    def bound(raw: Mapping[str, Any], value: object, path: str) -> object:
        node = _merged(raw, definitions, frozenset())[0]
        if isinstance(value, str) and "maxLength" in node and len(value) > node["maxLength"]:
            notes.append(f"{path} cut from {len(value)} to {node['maxLength']} characters")
            return value[: node["maxLength"]]
        if isinstance(value, list) and "items" in node:
            high = node.get("maxItems")
            if high is not None and len(value) > high:
                notes.append(f"{path} cut from {len(value)} to {high} items")
                value = value[:high]
            return [bound(node["items"], item, f"{path}[{i}]") for i, item in enumerate(value)]
        if isinstance(value, int) and not isinstance(value, bool):
            low, high = node.get("minimum"), node.get("maximum")
            inside = value if low is None else max(low, value)
            inside = inside if high is None else min(high, inside)
            if inside != value:
                notes.append(f"{path} cut from {value} to {inside}")
                return inside
        if isinstance(value, dict) and "properties" in node:
            return object_of(node, value, path)
        return value

    def object_of(node: Mapping[str, Any], value: dict[str, Any], path: str) -> dict[str, Any]:
        properties: Mapping[str, Any] = node["properties"]
        required = set(node.get("required", ()))
        out: dict[str, Any] = {}
        for key, item in value.items():
            if key not in properties:
                out[key] = item  # refused by validation: the class forbids extra fields
            elif item is None and key not in required and not _accepts_null(properties[key]):
                continue  # an optional field sent as null: the class's default holds
            else:
                out[key] = bound(properties[key], item, f"{path}.{key}" if path else key)
        return out

    return model.model_validate(bound(original, data, "")), tuple(notes)
