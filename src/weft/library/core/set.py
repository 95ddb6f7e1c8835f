"""Edit Fields (Set) (``n8n-nodes-base.set`` v3–3.4, and the legacy v1/v2 ``values`` form).

Mode ``manual`` writes typed assignments (``assignments.assignments[]`` from v3.3, ``fields.values[]``
before) over the input fields kept by ``includeOtherFields``/``include``; mode ``raw`` writes the object of
``jsonOutput``. Parameters are read once, raw; per item only the expressions among them are evaluated.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from typing import Any, ClassVar

from weft.errors import ExpressionError, NodeOperationError, WeftError
from weft.library.core._set_helpers import (
    ComposeOptions,
    SetFieldError,
    compose_options,
    compose_return_item,
    find_resolvables,
    parse_json_parameter,
    stringify_resolved,
    validate_entry,
)
from weft.nodes.contract import ExecuteContext, NodeDescription, NodeType
from weft.nodes.values import Params, has_expression, js_to_number, js_truthy, set_path
from weft.workflow import Item, NodeOutput

_COMPOSE_PARAMS = ("include", "includeOtherFields", "options", "includeFields", "excludeFields")


class Set(NodeType):
    description: ClassVar[NodeDescription] = NodeDescription(
        name="n8n-nodes-base.set",
        display_name="Edit Fields (Set)",
        versions=(1, 2, 3, 3.1, 3.2, 3.3, 3.4, 3.5),
        description="Modify, add, or remove item fields",
        group=("input",),
        defaults={
            "mode": "manual",
            "include": "all",
            "includeOtherFields": False,
            "options": {},
            "jsonOutput": '{\n  "my_field_1": "value",\n  "my_field_2": 1\n}',
        },
    )

    async def execute(self, ctx: ExecuteContext) -> NodeOutput:
        params = Params(ctx)
        if params.node_version < 3:
            return [_legacy_set(ctx, params)]
        mode = params.get("mode", 0, "manual")
        builder = _RawBuilder(ctx, params) if mode == "raw" else _ManualBuilder(ctx, params)
        duplicates = 0
        if params.get("duplicateItem", 0, False) and ctx.mode == "manual":
            duplicates = int(params.get("duplicateCount", 0, 0) or 0)
        output: list[Item] = []
        for index, item in enumerate(ctx.get_input_data()):
            try:
                new_item = builder.build(index, item)
            except ExpressionError as error:
                if not ctx.node.continueOnFail or mode == "raw":
                    new_item = _failed_item(ctx, error, index)
                else:
                    new_item = _expression_failed_quirk(builder, index, item)
            except (SetFieldError, WeftError) as error:
                new_item = _failed_item(ctx, error, index)
            output.extend([new_item] * (duplicates + 1))
        return [output]


def _failed_item(ctx: ExecuteContext, error: Exception, index: int) -> Item:
    if not ctx.continue_on_fail():
        raise _node_error(ctx, error, index) from error
    return {"json": {"error": _error_text(error)}, "pairedItem": {"item": index}}


def _expression_failed_quirk(builder: _Builder, index: int, item: Item) -> Item:
    """n8n's special case for Set with the legacy ``continueOnFail`` flag: a parameter whose expression fails reads
    as ``[{name: undefined, value: undefined}]``. From v3.3 that is no assignments at all, so the item keeps only
    what the include options keep; v3–3.2 then fail on the entry's missing type."""
    if builder.version >= 3.3:
        return compose_return_item(index, item, {}, builder.compose_options(index))
    return {"json": {"error": "Cannot read properties of undefined (reading 'replace')"}, "pairedItem": {"item": index}}


def _error_text(error: Exception) -> str:
    """The message n8n puts in a continued item's ``error``: the bare message, without Weft's location suffix."""
    return error.message if isinstance(error, WeftError) else str(error)


def _node_error(ctx: ExecuteContext, error: Exception, item_index: int) -> WeftError:
    if isinstance(error, WeftError):
        return error  # an expression that failed keeps its own error
    description = getattr(error, "description", None)
    return NodeOperationError(ctx.node.name, str(error), description=description, item_index=item_index)


class _Builder:
    """Reads the parameters that decide which input fields are kept (once, unless they hold expressions)."""

    def __init__(self, ctx: ExecuteContext, params: Params) -> None:
        self.ctx = ctx
        self.params = params
        self.version = params.node_version
        raws = {name: params.raw(name) for name in _COMPOSE_PARAMS}
        dynamic = any(map(has_expression, raws.values()))
        self._static = None if dynamic else self._compose_options(raws.get)

    def compose_options(self, item_index: int) -> ComposeOptions:
        if self._static is not None:
            return self._static
        return self._compose_options(lambda name: self.params.get(name, item_index))

    def _compose_options(self, read: Callable[[str], Any]) -> ComposeOptions:
        """The options from ``read(name)``, a parameter's value (``None`` when it is not set)."""
        include = read("include") or "all"
        if self.version >= 3.3 and not read("includeOtherFields"):
            include = "none"
        options = read("options") or {}
        return compose_options(self.version, include, options, read("includeFields"), read("excludeFields"))

    def build(self, item_index: int, item: Item) -> Item:
        raise NotImplementedError


class _ManualBuilder(_Builder):
    """Mode ``manual``: typed assignments (v3.3+) or typed ``fields.values`` (v3–3.2)."""

    def __init__(self, ctx: ExecuteContext, params: Params) -> None:
        super().__init__(ctx, params)
        if self.version >= 3.3:
            raw = params.raw("assignments.assignments", []) or []
            self.entries = [(a.get("name", ""), a.get("type", "string"), a.get("value")) for a in raw]
        else:
            raw = params.raw("fields.values", []) or []
            self.entries = [_field_entry(field) for field in raw]
        self._dynamic = [(has_expression(n), has_expression(v)) for n, _, v in self.entries]
        self._ignore = None if has_expression(params.raw("options")) else bool(self._ignore_errors(0))

    def build(self, item_index: int, item: Item) -> Item:
        options = self.compose_options(item_index)
        ignore = self._ignore if self._ignore is not None else bool(self._ignore_errors(item_index))
        evaluate = self.ctx.evaluate_expression
        new_fields: dict[str, Any] = {}
        for (name, kind, raw_value), (name_dynamic, value_dynamic) in zip(self.entries, self._dynamic, strict=True):
            value = raw_value
            if name_dynamic:
                name = str(self.params.resolve(name, item_index))
            if kind == "object" and isinstance(value, str) and value.startswith("=") and self.version < 3.3:
                # n8n parses the raw text only when the value evaluates to something (``={{ null }}`` stays null)
                if evaluate(value, item_index) is not None:
                    value = _resolve_raw(self.ctx, value.lstrip("="), item_index)
                    value = parse_json_parameter(value, item_index, name)
                else:
                    value = None
            elif value_dynamic:
                value = (
                    evaluate(value, item_index, parameter=name)
                    if isinstance(value, str)
                    else self.params.resolve(value, item_index)
                )
            if kind == "binary":
                raise SetFieldError(f"Could not find binary data specified in field {name}")
            try:
                key, converted = validate_entry(name, kind, value, item_index, ignore, self.version)
            except SetFieldError as error:
                raise _undefined_worded(self.ctx, error, value, raw_value, item_index) from None
            new_fields[key] = converted
        return compose_return_item(item_index, item, new_fields, options)

    def _ignore_errors(self, item_index: int) -> Any:
        return (self.params.get("options", item_index, {}) or {}).get("ignoreConversionErrors")


_WHOLE_EXPRESSION = re.compile(r"^=\s*\{\{([\s\S]*)\}\}\s*$")


def _undefined_worded(ctx: ExecuteContext, error: SetFieldError, value: Any, raw: Any, item_index: int) -> Exception:
    """n8n says ``'undefined'`` where an expression gave JavaScript's ``undefined``; Weft's values carry only
    ``None``, so the expression is asked (once, on this error path) whether its value is ``undefined``."""
    match = _WHOLE_EXPRESSION.match(raw) if value is None and isinstance(raw, str) else None
    if match is None or "got 'null'" not in str(error) or "{{" in match.group(1):
        return error
    try:
        is_undefined = ctx.evaluate_expression(f"={{{{ ({match.group(1)}) === undefined }}}}", item_index)
    except WeftError:
        return error
    if is_undefined is not True:
        return error
    return SetFieldError(str(error).replace("got 'null'", "got 'undefined'"), error.description)


def _field_entry(field: dict[str, Any]) -> tuple[str, str, Any]:
    kind = field.get("type", "stringValue")
    return field.get("name", ""), kind.replace("Value", ""), field.get(kind)


class _RawBuilder(_Builder):
    """Mode ``raw``: the object of ``jsonOutput`` (an expression template is resolved segment by segment)."""

    def __init__(self, ctx: ExecuteContext, params: Params) -> None:
        super().__init__(ctx, params)
        raw = params.raw("jsonOutput", "")
        self.template = raw.lstrip("=") if isinstance(raw, str) and raw.startswith("=") else None
        self.static = raw

    def build(self, item_index: int, item: Item) -> Item:
        if self.template is not None:
            data = parse_json_parameter(_resolve_raw(self.ctx, self.template, item_index), item_index)
        else:
            data = parse_json_parameter(self.static, item_index)
        return compose_return_item(item_index, item, data, self.compose_options(item_index))


def _resolve_raw(ctx: ExecuteContext, template: str, item_index: int) -> str:
    """n8n ``resolveRawData``: each ``{{ … }}`` replaced by its value (objects as JSON)."""
    text = template
    for resolvable in find_resolvables(template):
        value = ctx.evaluate_expression(f"={resolvable}", item_index)
        text = text.replace(resolvable, stringify_resolved(value), 1)
    return text


# --------------------------------------------------------------------------- v1 / v2


def _legacy_set(ctx: ExecuteContext, params: Params) -> list[Item]:
    """Set v1/v2: ``values.{boolean,number,string}[{name, value}]`` and ``keepOnlySet``."""
    output: list[Item] = []
    for index, item in enumerate(ctx.get_input_data()):
        try:
            output.append(_legacy_item(params, index, item, params.node_version, bool(ctx.node.continueOnFail)))
        except WeftError as error:
            if not ctx.continue_on_fail():
                raise
            output.append({"json": {"error": str(error)}, "pairedItem": {"item": index}})
    return output


def _legacy_item(params: Params, index: int, item: Item, version: float, legacy_continue: bool) -> Item:
    new_item: dict[str, Any] = {"json": {}, "pairedItem": {"item": index}}
    if not params.get("keepOnlySet", index, False):
        if item.get("binary") is not None:
            new_item["binary"] = dict(item["binary"])
        new_item["json"] = dict(item["json"])
    dot = (params.get("options", index, {}) or {}).get("dotNotation") is not False
    number = _numeric_string if version >= 2 else _identity
    for kind, convert in (("boolean", js_truthy), ("number", number), ("string", _identity)):
        try:
            entries = params.get(f"values.{kind}", index, []) or []
        except ExpressionError:
            if not legacy_continue:
                raise
            # n8n reads the list as [{name: undefined, value: undefined}]: only a boolean survives JSON
            entries = [{"name": "undefined", "value": False}] if kind == "boolean" else []
        for entry in entries:
            value = convert(entry.get("value", False if kind == "boolean" else 0 if kind == "number" else ""))
            name = entry.get("name", "propertyName")  # Set v1/v2's default field name
            if dot:
                set_path(new_item["json"], name, value)
            else:
                new_item["json"][name] = value
    return new_item  # type: ignore[return-value]


def _identity(value: Any) -> Any:
    return value


def _numeric_string(value: Any) -> Any:
    """Set v2 turns a number field's numeric string into the number (``Number(value)``)."""
    if isinstance(value, str):
        number = js_to_number(value)
        if not math.isnan(number):
            return number
    return value
