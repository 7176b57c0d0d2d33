"""A setup form read as the game's options say: each field by its type.

A checkbox or a 0/1 radio is a bool; a number or a choice of numbers an int; text and
choices of words stay text; a tuple of words takes every value of its field. An empty field
takes the option's default (it is left out). What is read goes to the game's codec, which
refuses what is out of range. A game whose form needs more says so (``GameSpec.read_form``).
"""

from __future__ import annotations

import typing
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, replace
from functools import cache
from typing import Any

from msgspec import inspect

from tapete.games.protocol import JSON, GameSpec


@dataclass(frozen=True, slots=True)
class Field:
    """One option, as a setup page lists it."""

    name: str
    title: str
    """A Spanish message id."""
    kind: str
    """``bool``, ``int``, ``str``, ``words`` (a tuple of them), or ``choice``."""
    default: Any
    choices: tuple[Any, ...] = ()
    minimum: int | None = None
    maximum: int | None = None
    extra: Mapping[str, Any] | None = None


def _unwrap(t: inspect.Type) -> tuple[inspect.Type, inspect.Metadata | None]:
    meta = None
    while isinstance(t, inspect.Metadata):
        meta = t
        t = t.type
    return t, meta


def _literal_order(tp: Any, name: str) -> tuple[Any, ...]:
    """A ``Literal``'s values in the order written (``inspect`` sorts them)."""
    hint = typing.get_type_hints(tp, include_extras=True)[name]
    while typing.get_origin(hint) is typing.Annotated:
        hint = typing.get_args(hint)[0]
    return tuple(typing.get_args(hint)) if typing.get_origin(hint) is typing.Literal else ()


def fields(spec: GameSpec[Any, Any, Any], values: Mapping[str, Any] | None = None) -> list[Field]:
    """The game's options, in declaration order; with ``values`` (options JSON), each
    option's default is its value there (a setup page that changes a room's options)."""
    found = _fields(spec.config.type)
    if not values:
        return found
    return [replace(f, default=values.get(f.name, f.default)) for f in found]


@cache
def _fields(options: type) -> list[Field]:
    info = inspect.type_info(options)
    assert isinstance(info, inspect.StructType)
    out: list[Field] = []
    for f in info.fields:
        t, meta = _unwrap(f.type)
        schema = (meta.extra_json_schema if meta else None) or {}
        title = str(schema.get("title", f.name))
        extra = meta.extra if meta else None
        if isinstance(t, inspect.UnionType):  # e.g. names or a count: the first reading
            t, _ = _unwrap(t.types[0])
        if isinstance(t, inspect.BoolType):
            out.append(Field(f.name, title, "bool", f.default, extra=extra))
        elif isinstance(t, inspect.IntType):
            out.append(
                Field(f.name, title, "int", f.default, minimum=t.ge, maximum=t.le, extra=extra)
            )
        elif isinstance(t, inspect.LiteralType):
            choices = _literal_order(options, f.name) or tuple(t.values)
            out.append(Field(f.name, title, "choice", f.default, choices=choices, extra=extra))
        elif isinstance(t, inspect.VarTupleType | inspect.ListType):
            out.append(Field(f.name, title, "words", f.default, extra=extra))
        else:
            out.append(Field(f.name, title, "str", f.default, extra=extra))
    return out


def _int(text: str) -> Any:
    """An int where the text is one; other text goes on for the codec to refuse."""
    try:
        return int(text)
    except ValueError:
        return text


def _values(spec: GameSpec[Any, Any, Any], form: Any) -> Iterator[tuple[str, Any]]:
    for f in fields(spec):
        if f.kind == "words":
            if hasattr(form, "getlist"):
                got = [str(v) for v in form.getlist(f.name)]
                if got:
                    yield f.name, got
            continue
        raw = form.get(f.name)
        if f.kind == "bool":
            yield f.name, raw in ("1", "on", "true")
            continue
        if raw is None or raw == "":
            continue
        text = str(raw)
        if f.kind == "int" or (f.kind == "choice" and all(type(c) is int for c in f.choices)):
            yield f.name, _int(text)
        else:
            yield f.name, text


def read(spec: GameSpec[Any, Any, Any], form: Any) -> JSON:
    """The options JSON a setup form asks for (not yet checked: the codec does that)."""
    if spec.read_form is not None:
        return spec.read_form(form)
    return dict(_values(spec, form))


__all__ = ["Field", "fields", "read"]
