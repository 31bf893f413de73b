"""A game's state as JSON, exactly: what the table's record carries under "state", so that a record taken at any
moment (between any two answers, a half-collected secret ballot included) can be fed back as a position and the
game goes on exactly as it would have.

Any game's state is plain frozen data (companion/contract.py: Game); it is written as JSON with a tag wherever
JSON alone would lose what it was:
- a dataclass: an object with its class's name under "@" and its fields by name;
- a tuple: a JSON array; a list (a message's parameter may be one): {"@list": [...]};
- a frozenset or a set: {"@set": [...]} (sorted, so that one state is always written the same);
- a mapping with string keys (none starting with "@"): an object; any other: {"@map": [[key, value], ...]}.

Read back, only the game's own classes (those of its package) and the contract's and the ballot's are made: a
position is a file anyone may hand to `companion replay`, never a way to make any other object. A record fed back
as a position is read by companion/position.py.
"""

from __future__ import annotations

import collections.abc
import dataclasses
import json
import sys
import types
import typing
from collections.abc import Hashable, Mapping
from typing import Any

TAG = "@"


def encode(value: Any) -> Any:
    """`value` (a state, or any part of one) as JSON."""
    if value is None or isinstance(value, bool | int | str):
        return value
    if isinstance(value, float):
        return value
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        out = {TAG: type(value).__qualname__}
        for field in dataclasses.fields(value):
            out[field.name] = encode(getattr(value, field.name))
        return out
    if isinstance(value, tuple):
        return [encode(item) for item in value]
    if isinstance(value, list):
        return {"@list": [encode(item) for item in value]}
    if isinstance(value, frozenset | set):
        return {"@set": sorted((encode(item) for item in value), key=json.dumps)}
    if isinstance(value, Mapping):
        if all(isinstance(key, str) and not key.startswith(TAG) for key in value):
            return {key: encode(item) for key, item in value.items()}
        return {"@map": [[encode(key), encode(item)] for key, item in value.items()]}
    raise TypeError(f"a state holds {type(value).__name__}, which a snapshot does not write")


def classes_of(state_type: type) -> dict[str, type]:
    """The classes a state of `state_type` may be made of: every dataclass of its game's package, the contract's
    and the ballot's, by name."""
    package = state_type.__module__.rpartition(".")[0] or state_type.__module__
    modules = [module for name, module in list(sys.modules.items())
               if name == package or name.startswith(package + ".")]
    modules += [sys.modules["companion.contract"], sys.modules["companion.ballot"]]
    found: dict[str, type] = {}
    for module in modules:
        for value in vars(module).values():
            if isinstance(value, type) and dataclasses.is_dataclass(value) and value.__module__ == module.__name__:
                known = found.setdefault(value.__qualname__, value)
                if known is not value:
                    raise TypeError(f"two classes named {value.__qualname__}: {known.__module__}, {value.__module__}")
    return found


class Unreadable(Exception):
    """Where a snapshot cannot be read (a path like state.survivors[2].items), and why: a catalogue key of
    position.unreadable.* and its parameters."""

    def __init__(self, where: str, why: str, **params: str):
        super().__init__(f"{where}: {why} {params}")
        self.where, self.why, self.params = where, why, params


def decode(data: Any, classes: Mapping[str, type], where: str = "state") -> Any:
    """The value `data` (as `encode` wrote it) stands for; Unreadable names the first place it cannot. Each field
    of a dataclass must hold what its annotation says (an int is an int, a tuple of seats a tuple of strings)."""
    if data is None or isinstance(data, bool | int | str | float):
        return data
    if isinstance(data, list):
        return tuple(decode(item, classes, f"{where}[{i}]") for i, item in enumerate(data))
    if not isinstance(data, dict):
        raise Unreadable(where, "not_json")
    if TAG in data:
        return _made(data, classes, where)
    if set(data) == {"@list"} and isinstance(data["@list"], list):
        return [decode(item, classes, f"{where}[{i}]") for i, item in enumerate(data["@list"])]
    if set(data) == {"@set"} and isinstance(data["@set"], list):
        items = [decode(item, classes, f"{where}[{i}]") for i, item in enumerate(data["@set"])]
        if not all(isinstance(item, Hashable) for item in items):
            raise Unreadable(where, "not_json")
        return frozenset(items)
    if set(data) == {"@map"} and isinstance(data["@map"], list):
        out = {}
        for i, pair in enumerate(data["@map"]):
            if not isinstance(pair, list) or len(pair) != 2:
                raise Unreadable(f"{where}[{i}]", "pair")
            key = decode(pair[0], classes, f"{where}[{i}]")
            if not isinstance(key, Hashable):
                raise Unreadable(f"{where}[{i}]", "pair")
            out[key] = decode(pair[1], classes, f"{where}[{i}]")
        return out
    if any(key.startswith(TAG) for key in data):
        raise Unreadable(where, "unknown_tag")
    return {key: decode(item, classes, f"{where}.{key}") for key, item in data.items()}


def _made(data: dict, classes: Mapping[str, type], where: str) -> Any:
    """A dataclass of the game's, its fields read and each checked against its annotation."""
    name = data[TAG]
    cls = classes.get(name) if isinstance(name, str) else None
    if cls is None:
        raise Unreadable(where, "unknown_part", name=json.dumps(name)[:40])
    names = [field.name for field in dataclasses.fields(cls)]
    if set(data) - {TAG} != set(names):
        raise Unreadable(where, "fields", name=name, fields=", ".join(names))
    hints = _hints(cls)
    values = {}
    for key in names:
        value = decode(data[key], classes, f"{where}.{key}")
        if key in hints and not fits(value, hints[key]):
            raise Unreadable(f"{where}.{key}", "wrong_type", expected=_named(hints[key]))
        values[key] = value
    return cls(**values)


def _hints(cls: type) -> dict[str, Any]:
    try:
        return typing.get_type_hints(cls)
    except (NameError, TypeError):  # an annotation this module cannot resolve: its fields are not checked
        return {}


def fits(value: Any, hint: Any) -> bool:
    """Whether `value` is what the annotation `hint` says (as far as plain data goes)."""
    if hint is Any or isinstance(hint, typing.TypeVar):
        return True
    if hint is type(None) or hint is None:
        return value is None
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        return any(fits(value, arg) for arg in args)
    if hint is bool:
        return type(value) is bool
    if hint is int:
        return type(value) is int
    if hint is float:
        return type(value) in (int, float)
    if hint is str:
        return type(value) is str
    if origin is tuple or hint is tuple:
        if not isinstance(value, tuple):
            return False
        if not args:
            return True
        if len(args) == 2 and args[1] is Ellipsis:
            return all(fits(item, args[0]) for item in value)
        return len(args) == len(value) and all(fits(item, arg) for item, arg in zip(value, args, strict=True))
    if origin in (frozenset, set) or hint in (frozenset, set):
        return isinstance(value, frozenset | set) and all(fits(item, args[0]) for item in value if args)
    if origin in (dict, Mapping, collections.abc.Mapping) or hint in (dict, Mapping):
        if not isinstance(value, Mapping):
            return False
        return not args or all(fits(k, args[0]) and fits(v, args[1]) for k, v in value.items())
    if origin is list or hint is list:
        return isinstance(value, list) and all(fits(item, args[0]) for item in value if args)
    if isinstance(hint, type):
        return isinstance(value, hint)
    return True  # an annotation plain data cannot be held against


def _named(hint: Any) -> str:
    return getattr(hint, "__name__", None) if isinstance(hint, type) else str(hint).replace("typing.", "")
