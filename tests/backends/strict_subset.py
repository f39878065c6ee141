"""The checker of the strict subset every provider's strict mode takes: every object closed
(`additionalProperties: false`) with every property required, references inlined, no
length, pattern, format or numeric bound, no combination but `anyOf`, and every node typed
(a `type`, an `enum` or an `anyOf`). Written apart from the converter it checks
(backends/strict_schema.py)."""

from collections.abc import Iterator, Mapping
from typing import Any

_OUTSIDE = {
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
    "$ref",
    "$defs",
    "definitions",
    "allOf",
    "oneOf",
    "not",
    "if",
    "then",
    "else",
    "const",
    "default",
    "patternProperties",
    "propertyNames",
    "prefixItems",
}
_TYPES = {"object", "array", "string", "integer", "number", "boolean", "null"}


def strict_subset_problems(schema: Mapping[str, Any]) -> list[str]:
    """What keeps `schema` out of the strict subset, one line each (none: it is in)."""
    return list(_problems(schema, "$"))


def _problems(node: Mapping[str, Any], path: str) -> Iterator[str]:
    for keyword in sorted(_OUTSIDE & set(node)):
        yield f"{path}: {keyword}"
    kind = node.get("type")
    kinds = kind if isinstance(kind, list) else [kind] if kind is not None else []
    if not kinds and "enum" not in node and "anyOf" not in node:
        yield f"{path}: no type"
    for name in kinds:
        if name not in _TYPES:
            yield f"{path}: type {name}"
    if "enum" in node and not node["enum"]:
        yield f"{path}: empty enum"
    if "object" in kinds:
        properties = node.get("properties", {})
        if node.get("additionalProperties") is not False:
            yield f"{path}: additionalProperties is not false"
        if list(node.get("required", [])) != list(properties):
            yield f"{path}: not every property required"
        for name, sub in properties.items():
            yield from _problems(sub, f"{path}.{name}")
    if "array" in kinds:
        if "items" not in node:
            yield f"{path}: array without items"
        else:
            yield from _problems(node["items"], f"{path}[]")
    for i, option in enumerate(node.get("anyOf", ())):
        yield from _problems(option, f"{path}|{i}")
