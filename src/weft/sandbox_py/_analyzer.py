"""Checks a Python Code node's source before it runs: n8n's task runner's ``TaskAnalyzer`` rules.

Imports must be on the allow lists; names and attributes that reach the interpreter's internals
(``__class__``, ``__subclasses__``, ``__globals__``, frames, name-mangled attributes …) are refused, also when
spelled as a string constant or a ``str.format`` field. These checks give the user a clear error; they are not
what the sandbox relies on (see ``_confine``).
"""

from __future__ import annotations

import ast
import re

from weft.sandbox_py._guards import import_refusal

BLOCKED_NAMES = frozenset({"__loader__", "__builtins__", "__globals__", "__spec__", "__name__"})
BLOCKED_ATTRIBUTES = frozenset(
    {
        "__subclasses__", "__globals__", "__builtins__", "__traceback__", "tb_frame", "tb_next", "f_back",
        "f_globals", "f_locals", "f_code", "f_builtins", "__getattribute__", "__qualname__", "__module__",
        "gi_frame", "gi_code", "gi_yieldfrom", "cr_frame", "cr_code", "ag_frame", "ag_code", "__thisclass__",
        "__self_class__", "__base__", "__class__", "__bases__", "__code__", "__closure__", "__loader__",
        "__cached__", "__dict__", "__import__", "__mro__", "__init_subclass__", "__getattr__", "__setattr__",
        "__delattr__", "__self__", "__func__", "__wrapped__", "__annotations__", "__spec__",
    }
)  # fmt: skip
_RESTRICTIONS = "security restrictions"
_REASONS = "for security reasons"
_FORMAT_FIELD = re.compile(r"\{[^{}]*?[.\[]\s*(_[A-Za-z0-9_]*)")


def violations(code: str, stdlib_allow: set[str], external_allow: set[str]) -> list[str]:
    """``Line N: why`` for each refused construct of ``code`` (raises ``SyntaxError`` when it does not parse)."""
    tree = ast.parse(code)
    if "*" in stdlib_allow and "*" in external_allow:
        return []
    checker = _Checker(stdlib_allow, external_allow)
    checker.visit(tree)
    return checker.found


class _Checker(ast.NodeVisitor):
    def __init__(self, stdlib_allow: set[str], external_allow: set[str]) -> None:
        self.stdlib_allow = stdlib_allow
        self.external_allow = external_allow
        self.found: list[str] = []
        self._checked: set[str] = set()

    def _add(self, node: ast.AST, message: str) -> None:
        self.found.append(f"Line {getattr(node, 'lineno', 0)}: {message}")

    def _name(self, node: ast.AST, name: str | None) -> None:
        if name in BLOCKED_NAMES:
            self._add(
                node, f"Access to name '{name}' is disallowed, because it can be used to bypass security restrictions."
            )
        elif name in BLOCKED_ATTRIBUTES:
            self._add(node, _attribute_message(name))

    def _module(self, node: ast.AST, module: str) -> None:
        if module.startswith("."):
            self._add(node, "Relative imports are disallowed.")
            return
        top = module.split(".")[0]
        if top in self._checked:
            return
        self._checked.add(top)
        refusal = import_refusal(module, self.stdlib_allow, self.external_allow)
        if refusal:
            self._add(node, refusal)

    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            self._module(node, alias.name)
            self._name(node, alias.asname)
        self.generic_visit(node)

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        if node.level > 0:
            self._add(node, "Relative imports are disallowed.")
        elif node.module:
            self._module(node, node.module)
        for alias in node.names:
            self._name(node, alias.asname or alias.name)
        self.generic_visit(node)

    def visit_Name(self, node: ast.Name) -> None:
        if node.id in BLOCKED_NAMES:
            self._name(node, node.id)
        self.generic_visit(node)

    def visit_Attribute(self, node: ast.Attribute) -> None:
        if node.attr in BLOCKED_ATTRIBUTES:
            self._add(node, _attribute_message(node.attr))
        if re.match(r"_[A-Za-z0-9]+__", node.attr):
            self._add(
                node,
                "Access to name-mangled attributes (pattern: _ClassName__attr) is disallowed for security reasons.",
            )
        self.generic_visit(node)

    def visit_Call(self, node: ast.Call) -> None:
        func = node.func
        is_import = (isinstance(func, ast.Name) and func.id == "__import__") or (
            isinstance(func, ast.Attribute) and func.attr == "__import__"
        )
        if is_import:
            first = node.args[0] if node.args else None
            if isinstance(first, ast.Constant) and isinstance(first.value, str):
                self._module(node, first.value)
            else:
                self._add(node, "Dynamic __import__() calls are not allowed for security reasons.")
        self.generic_visit(node)

    def visit_Constant(self, node: ast.Constant) -> None:
        if isinstance(node.value, str):
            self._string(node, node.value)

    def visit_BinOp(self, node: ast.BinOp) -> None:
        joined = _joined(node)
        if joined is not None:
            self._string(node, joined)
        self.generic_visit(node)

    def _string(self, node: ast.AST, text: str) -> None:
        if text in BLOCKED_NAMES or text in BLOCKED_ATTRIBUTES:
            self._name(node, text)
            return
        for match in _FORMAT_FIELD.finditer(text):
            if match.group(1) in BLOCKED_ATTRIBUTES or match.group(1).startswith("__"):
                self._add(node, f"Access to attribute '{match.group(1)}' in a format string is disallowed.")

    def visit_FunctionDef(self, node: ast.FunctionDef) -> None:
        self._name(node, node.name if node.name in BLOCKED_NAMES else None)
        self.generic_visit(node)

    visit_AsyncFunctionDef = visit_FunctionDef  # type: ignore[assignment]

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        self._name(node, node.name if node.name in BLOCKED_NAMES else None)
        self.generic_visit(node)

    def visit_Global(self, node: ast.Global) -> None:
        for name in node.names:
            self._name(node, name if name in BLOCKED_NAMES else None)

    def visit_arg(self, node: ast.arg) -> None:
        self._name(node, node.arg if node.arg in BLOCKED_NAMES else None)

    def visit_ExceptHandler(self, node: ast.ExceptHandler) -> None:
        self._name(node, node.name if node.name in BLOCKED_NAMES else None)
        self.generic_visit(node)

    def visit_MatchClass(self, node: ast.MatchClass) -> None:
        if node.patterns:
            self._add(node, "Positional match patterns on classes are disallowed for security reasons.")
        for attr in node.kwd_attrs:
            if attr in BLOCKED_ATTRIBUTES:
                self._add(node, _attribute_message(attr))
        self.generic_visit(node)


def _attribute_message(name: str) -> str:
    return f"Access to attribute '{name}' is disallowed, because it can be used to bypass security restrictions."


def _joined(node: ast.AST) -> str | None:
    """The string a ``+`` of string constants makes at compile time (``'__cla' + 'ss__'``)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left, right = _joined(node.left), _joined(node.right)
        return None if left is None or right is None else left + right
    return None
