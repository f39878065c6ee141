"""Immutable models with a cheap copy-on-update: the engine copies states on every step."""

from collections.abc import Mapping
from typing import Any, Self

from pydantic import BaseModel, ConfigDict


class FrozenModel(BaseModel):
    """A frozen model whose instances share their set of explicitly set field names.

    Pydantic gives every instance a set of its own: 728 bytes for five names, 2.2 kB for
    twenty, more than the values of most events and decision records, of which a game
    holds hundreds. A frozen instance never changes its set, and pydantic copies it
    before a copy with an update adds names, so equal sets can be one object."""

    model_config = ConfigDict(frozen=True)

    def model_post_init(self, context: Any, /) -> None:
        object.__setattr__(self, "__pydantic_fields_set__", shared(self.__pydantic_fields_set__))


_SHARED_FIELDS_SETS: dict[frozenset[str], set[str]] = {}


def shared(names: set[str]) -> set[str]:
    """One set object per distinct set of field names (a model has few)."""
    return _SHARED_FIELDS_SETS.setdefault(frozenset(names), names)


class Frozen(FrozenModel):
    def model_dump(self, *, mode: str = "json", **kwargs: Any) -> dict[str, Any]:
        """JSON mode by default. LangGraph's checkpoint serializer calls `model_dump()`
        and would otherwise store every enum member with its module path, tripling the
        size of each saved state; restoring validates the plain values back."""
        return super().model_dump(mode=mode, **kwargs)

    def model_copy(self, *, update: Mapping[str, Any] | None = None, deep: bool = False) -> Self:
        """Like pydantic's shallow copy with an update (which does not validate either),
        without its generic bookkeeping: about a third of the engine's time otherwise."""
        if deep or not update:
            return super().model_copy(update=update, deep=deep)
        copy = object.__new__(type(self))
        object.__setattr__(copy, "__dict__", {**self.__dict__, **update})
        object.__setattr__(
            copy, "__pydantic_fields_set__", shared(self.__pydantic_fields_set__ | update.keys())
        )
        object.__setattr__(copy, "__pydantic_extra__", None)
        object.__setattr__(copy, "__pydantic_private__", None)
        return copy
