"""The modules of ``weft.services`` import each other one way: no cycle, not even through a function-local import.

Issue 23: ``runner ↔ db_services ↔ subworkflows ↔ chat`` was a runtime circle hidden by imports inside functions.
Every import counts (module level, in a function or a class, in a ``try``), except those under
``if TYPE_CHECKING:`` (types only: nothing runs them). Imports of modules outside ``weft.services`` are not edges,
so a function may still import a heavy module lazily for start-up speed.
"""

from __future__ import annotations

import ast
from pathlib import Path

import weft.services

SERVICES = Path(weft.services.__file__).parent
PACKAGE = "weft.services"


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _targets(node: ast.Import | ast.ImportFrom, modules: set[str]) -> set[str]:
    """The services modules an import statement loads (``from weft.services import x`` loads module ``x``)."""
    if isinstance(node, ast.Import):
        names = [alias.name for alias in node.names]
    elif node.level:  # relative: inside weft.services
        base = PACKAGE if not node.module else f"{PACKAGE}.{node.module}"
        names = [base] + [f"{base}.{alias.name}" for alias in node.names]
    else:
        base = node.module or ""
        names = [base] + [f"{base}.{alias.name}" for alias in node.names]
    found = set()
    for name in names:
        parts = name.split(".")
        if parts[:2] == ["weft", "services"] and len(parts) > 2 and parts[2] in modules:
            found.add(parts[2])
    return found


def _runtime_imports(tree: ast.AST, modules: set[str]) -> set[str]:
    found: set[str] = set()
    pending: list[ast.AST] = [tree]
    while pending:
        node = pending.pop()
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            found |= _targets(node, modules)
        if isinstance(node, ast.If) and _is_type_checking(node):
            pending.extend(node.orelse)  # the body imports types only
            continue
        pending.extend(ast.iter_child_nodes(node))
    return found


def services_graph() -> dict[str, set[str]]:
    """Each services module → the services modules it imports when it runs (the package's lazy ``__init__`` aside)."""
    paths = {path.stem: path for path in SERVICES.glob("*.py") if path.stem != "__init__"}
    modules = set(paths)
    return {
        name: _runtime_imports(ast.parse(path.read_text(encoding="utf-8")), modules) - {name}
        for name, path in paths.items()
    }


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One cycle of the graph as ``[a, b, …, a]``, or ``None``."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for target in sorted(graph.get(node, ())):
            if state.get(target) == 1:
                return [*path[path.index(target) :], target]
            if target not in state and (cycle := visit(target)) is not None:
                return cycle
        path.pop()
        state[node] = 2
        return None

    for start in sorted(graph):
        if start not in state and (cycle := visit(start)) is not None:
            return cycle
    return None


def test_services_modules_import_each_other_one_way() -> None:
    cycle = find_cycle(services_graph())
    assert cycle is None, (
        "Import cycle among weft.services modules: "
        + " -> ".join(cycle or [])
        + ". Give the shared concept one home in a module both can import (as run_result.py, chat_memory.py), "
        "or make the lower module take a protocol or a hook instead of importing the higher one."
    )


def test_the_graph_sees_module_and_function_level_imports() -> None:
    graph = services_graph()
    assert {"db_services", "subworkflows", "run_result"} <= graph["runner"]
    assert "import_export" in graph["runner"]  # imported inside WorkflowRunner.store (start-up speed)
    assert "runner" not in graph["waiting"]  # under TYPE_CHECKING only
    assert "webhook_auth" in graph["chat_auth"]  # ``from weft.services import webhook_auth``


def test_find_cycle_reports_a_cycle_hidden_in_a_function() -> None:
    source = "def f():\n    from weft.services.a import x\n"
    modules = {"a", "b"}
    graph = {"a": {"b"}, "b": _runtime_imports(ast.parse(source), modules)}
    assert find_cycle(graph) == ["a", "b", "a"]
    typed = "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from weft.services.a import x\n"
    assert find_cycle({"a": {"b"}, "b": _runtime_imports(ast.parse(typed), modules)}) is None
