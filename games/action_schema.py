"""One declaration of a game's actions, read two ways: the API reference's JSON Schema, and the
strict check every action passes before the rules see it.

A game declares ``ACTION_SCHEMA`` with the builders below (a ``oneOf`` with one branch per
action ``type``) and calls its :class:`ActionCheck` first thing in ``decide``. The check is
about shapes, not rules: a field is present when its type requires it, no field the type does
not take is there, and every value has the declared JSON type, read strictly (an integer is an
``int``: not a float such as ``0.0``, not a bool; a list is a list; an object is an object).
Values inside the right type (a card id, a seat number's range) stay the rules' to judge, with
their own codes. So an action whose shape the fold and the views were not written for never
reaches them: a float where a list index is read was once appended and broke a game for good.

A game declares its options the same way (``OPTIONS_SCHEMA``, a :func:`record` of them) and
runs its :class:`OptionsCheck` first thing in ``validate_options``.

The builders write OpenAPI 3.0's dialect of JSON Schema; the check reads ``type``,
``properties``, ``required``, ``additionalProperties``, ``items``, ``nullable``, ``anyOf`` and
``oneOf`` (as "any of": the branches of a declared field are told apart by shape), and takes
the rest (``enum``, bounds, descriptions) as documentation.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from games.base import InvalidOptions, RuleViolation

Schema = dict[str, Any]
#: A compiled check: the problem with a value at a path, as a code and a message ("'side' must be
#: an integer, not a number"), or None when it has the declared shape.
Problem = tuple[str, str]
_Check = Callable[[Any, str], "Problem | None"]
#: The codes an :class:`ActionCheck` refuses with on a game's behalf (besides the ``x-code`` its
#: declaration names): a game that runs one lists them in its ``RULE_CODES``.
CHECK_RULE_CODES: dict[str, str] = {
    "missing_field": "a field the action's type requires is missing",
    "unknown_field": "a key the action does not take",
    "bad_field": "a field's value is not of the JSON type the action declares for it",
}
#: The schema keyword (an OpenAPI extension) that gives a field its own code for a value of the
#: wrong shape, where a game refused it with that code before the check existed.
CODE = "x-code"


def integer(minimum: int | None = None, maximum: int | None = None, description: str = "", code: str = "") -> Schema:
    schema: Schema = {"type": "integer", **({CODE: code} if code else {})}
    if minimum is not None:
        schema["minimum"] = minimum
    if maximum is not None:
        schema["maximum"] = maximum
    return _described(schema, description)


def string(enum: Sequence[str] | None = None, description: str = "", max_length: int | None = None,
           code: str = "") -> Schema:
    schema: Schema = {"type": "string", **({CODE: code} if code else {})}
    if enum is not None:
        schema["enum"] = list(enum)
    if max_length is not None:
        schema["maxLength"] = max_length
    return _described(schema, description)


def boolean(description: str = "") -> Schema:
    return _described({"type": "boolean"}, description)


def array(items: Schema, description: str = "", code: str = "") -> Schema:
    return _described({"type": "array", "items": items, **({CODE: code} if code else {})}, description)


def record(properties: Mapping[str, Schema], required: Sequence[str] = (), description: str = "",
           code: str = "") -> Schema:
    """An object with these fields and no other."""
    schema: Schema = {"type": "object", "additionalProperties": False, "properties": dict(properties),
                      **({CODE: code} if code else {})}
    if required:
        schema["required"] = list(required)
    return _described(schema, description)


def mapping(values: Schema, keys: Sequence[str] | None = None, description: str = "", code: str = "") -> Schema:
    """An object keyed by the game's data (a card, an ideology), every value of one shape.

    ``keys``, when given, documents the names; the rules refuse a name they do not know.
    """
    schema: Schema = {"type": "object", "additionalProperties": values, **({CODE: code} if code else {})}
    if keys is not None:
        schema["properties"] = {key: values for key in keys}
    return _described(schema, description)


def free_object(description: str = "", code: str = "") -> Schema:
    """An object whose contents the game checks itself (a card set, a map: data, not a shape)."""
    return _described({"type": "object", "additionalProperties": True, **({CODE: code} if code else {})},
                      description)


def nullable(schema: Schema) -> Schema:
    """``schema``, or null (an option's "the default")."""
    return {**schema, "nullable": True}


def any_of(*schemas: Schema, description: str = "", code: str = "") -> Schema:
    return _described({"anyOf": list(schemas), **({CODE: code} if code else {})}, description)


def action(kind: str, fields: Mapping[str, Schema] | None = None, required: Sequence[str] = (),
           description: str = "") -> Schema:
    """One action type: its fields, those it cannot go without, and what it does."""
    return {"title": kind, "type": "object", "additionalProperties": False, "description": description,
            "required": ["type", *required],
            "properties": {"type": {"type": "string", "enum": [kind]}, **(fields or {})}}


def actions(*branches: Schema) -> Schema:
    """A game's ``ACTION_SCHEMA``: one branch per action type."""
    return {"oneOf": list(branches)}


def _described(schema: Schema, description: str) -> Schema:
    if description:
        schema["description"] = description
    return schema


def json_type(value: Any) -> str:
    """The JSON name of a parsed value's type, read strictly (a bool is not a number)."""
    kind = type(value)
    if value is None:
        return "null"
    if kind is bool:
        return "boolean"
    if kind is int:
        return "integer"
    if kind is float:
        return "number"
    if kind is str:
        return "string"
    if kind is list:
        return "array"
    if kind is dict:
        return "object"
    return kind.__name__


def _article(kind: str) -> str:
    return f"an {kind}" if kind[0] in "aeiou" else f"a {kind}"


def _kind(schema: Schema) -> str | None:
    """The JSON type every value of ``schema`` has, if they share one."""
    options = schema.get("anyOf") or schema.get("oneOf")
    if options is None:
        return schema.get("type")
    kinds = {_kind(option) for option in options}
    return kinds.pop() if len(kinds) == 1 else None


def _wrong(code: str, path: str, expected: str, value: Any) -> Problem:
    return code, f"{path} must be {_article(expected)}, not {_article(json_type(value))}"


def compile_schema(schema: Schema) -> _Check:
    """The check of one value against ``schema``; refuses a schema it cannot read strictly."""
    options = schema.get("anyOf") or schema.get("oneOf")
    if options is not None:
        checks = [compile_schema(option) for option in options]
        kinds = sorted({_kind(option) or "value" for option in options})
        expected = " or ".join(_article(kind) for kind in kinds)

        kinds_of = [_kind(option) for option in options]
        code = schema.get(CODE)

        nullable_choice = bool(schema.get("nullable"))

        def one_of(value: Any, path: str) -> Problem | None:
            if nullable_choice and value is None:
                return None
            problems = []
            for check in checks:  # the first branch the value fits ends the search
                problem = check(value, path)
                if problem is None:
                    return None
                problems.append(problem)
            shaped = [p for p, kind in zip(problems, kinds_of, strict=True) if kind == json_type(value)]
            problem = shaped[0] if len(shaped) == 1 else (
                "bad_field", f"{path} must be {expected}, not {_article(json_type(value))}")
            return (code, problem[1]) if code else problem
        return one_of
    kind = schema.get("type")
    nullable = bool(schema.get("nullable"))
    code = schema.get(CODE, "bad_field")
    if kind in ("integer", "string", "boolean"):
        python = {"integer": int, "string": str, "boolean": bool}[kind]

        def scalar(value: Any, path: str) -> Problem | None:
            if type(value) is python or (nullable and value is None):
                return None
            return _wrong(code, path, kind, value)
        return scalar
    if kind == "array":
        item = compile_schema(schema["items"])

        def sequence(value: Any, path: str) -> Problem | None:
            if type(value) is not list:
                return None if nullable and value is None else _wrong(code, path, "array", value)
            for index, element in enumerate(value):
                problem = item(element, f"{path}[{index}]")
                if problem:
                    return code if code != "bad_field" else problem[0], problem[1]
            return None
        return sequence
    if kind == "object":
        return _compile_object(schema, nullable, code)
    raise ValueError(f"a schema the strict check cannot read: {schema!r}")


def _anything(value: Any, path: str) -> Problem | None:
    return None


def _compile_object(schema: Schema, nullable: bool, code: str) -> _Check:
    fields = {name: compile_schema(sub) for name, sub in schema.get("properties", {}).items()}
    required = tuple(schema.get("required", ()))
    if "additionalProperties" not in schema:
        raise ValueError("an object the strict check reads must say what other keys it takes")
    extra = schema["additionalProperties"]  # True: any keys, whose values the game reads itself
    others = compile_schema(extra) if isinstance(extra, dict) else _anything if extra is True else None

    def obj(value: Any, path: str) -> Problem | None:
        if type(value) is not dict:
            return None if nullable and value is None else _wrong(code, path, "object", value)
        for name in required:
            if name not in value:
                return "missing_field", f"{path} needs the field {name!r}"
        for name, element in value.items():
            check = fields.get(name, others)
            if check is None:
                return "unknown_field", f"{path} takes no field {name!r}"
            problem = check(element, f"{path}.{name}")
            if problem:
                return problem
        return None
    return obj


class ActionCheck:
    """The strict check of a game's actions, compiled once from its ``ACTION_SCHEMA``.

    Called with an action, it raises :class:`RuleViolation` for a missing field
    (``missing_field``, or the code ``missing_codes`` gives that field), a field the type
    does not take (``unknown_field``) and a value of the wrong shape (``bad_field``, or the
    code its schema names with ``x-code``). An action
    that is not an object with a string ``type`` of the declaration is left to the game, whose
    own codes (``bad_action``, ``unknown_action``) say so.
    """

    def __init__(self, schema: Schema, missing_codes: Mapping[str, str] | None = None) -> None:
        self.schema = schema
        self.missing_codes = dict(missing_codes or {})
        self.required: dict[str, tuple[str, ...]] = {}
        self._fields: dict[str, dict[str, _Check]] = {}
        for branch in schema["oneOf"]:
            kind = branch["title"]
            self.required[kind] = tuple(name for name in branch.get("required", ()) if name != "type")
            self._fields[kind] = {name: compile_schema(sub) for name, sub in branch["properties"].items()
                                  if name != "type"}

    def __call__(self, action: Any) -> None:
        if type(action) is not dict:
            return
        kind = action.get("type")
        if not isinstance(kind, str) or kind not in self._fields:
            return
        fields = self._fields[kind]
        for name in self.required[kind]:
            if name not in action:
                raise RuleViolation(self.missing_codes.get(name, "missing_field"), f"{kind!r} needs the field {name!r}")
        for name, value in action.items():
            if name == "type":
                continue
            check = fields.get(name)
            if check is None:
                raise RuleViolation("unknown_field", f"unexpected field for {kind!r}: {name}")
            problem = check(value, repr(name))
            if problem:
                raise RuleViolation(problem[0], f"{kind!r}: {problem[1]}")

    @property
    def kinds(self) -> list[str]:
        return list(self._fields)


class OptionsCheck:
    """The strict check of a game's options, compiled from its ``OPTIONS_SCHEMA`` (a
    :func:`record` of every option): the first step of ``validate_options``.

    An option of the wrong JSON type (a list of lists where a list of card ids goes) is
    refused as :class:`InvalidOptions` with its ``x-code`` or ``bad_option``; an option the
    game does not have is left to the game (its ``unknown_option`` names the known ones).
    """

    def __init__(self, schema: Schema) -> None:
        self.schema = schema
        self._fields = {name: compile_schema(sub) for name, sub in schema["properties"].items()}

    def __call__(self, options: Any) -> None:
        if not isinstance(options, Mapping):
            raise InvalidOptions("bad_option", "options are an object")
        for name, value in options.items():
            check = self._fields.get(name)
            problem = check(value, repr(name)) if check is not None else None
            if problem:
                code = problem[0] if problem[0] not in CHECK_RULE_CODES else "bad_option"
                raise InvalidOptions(code, f"option {problem[1]}")
