"""The import layers of DESIGN.md §2: a module imports only from its own layer or below."""

from __future__ import annotations

import ast
from pathlib import Path

import weft

SRC = Path(weft.__file__).parent

LAYERS: dict[str, int] = {
    "errors": 0,
    "__init__": 0,
    "_lazy": 0,
    "workflow": 1,
    # binary data (metadata and byte stores) needs only errors; everything from nodes up reads it
    "binary": 1,
    "expressions": 2,
    # the Python Code sandbox (a confined child process per run) needs only errors; the Code node uses it
    "sandbox_py": 2,
    "nodes": 3,
    "engine": 4,
    # the node library: node implementations the registry loads from catalog strings; they use the kit (nodes)
    "library": 4,
    "ai": 4,
    "testing": 4,
    "db": 5,
    "queue": 6,
    "services": 7,
    "server": 8,
    "cli": 8,
    # settings imports nothing from weft: persistence and above may read configuration (deviation from
    # DESIGN.md, which lists it with the composition roots; services need it to locate the user folder)
    "settings": 5,
    "__main__": 8,
}
#: Same-layer packages that must never import each other.
FORBIDDEN = {
    ("engine", "ai"),
    ("ai", "engine"),
    ("engine", "testing"),
    ("library", "engine"),
    ("library", "testing"),
}


def _package_of(module: str) -> str | None:
    parts = module.split(".")
    if parts[0] != "weft":
        return None
    return parts[1] if len(parts) > 1 else "__init__"


def _imports(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.append(node.module)
    return found


def _library_imports() -> list[str]:
    """Imports of the node library from outside it: the registry loads it only by its catalog strings."""
    problems = []
    for path in SRC.rglob("*.py"):
        rel = path.relative_to(SRC)
        if rel.parts[0] == "library":
            continue
        problems += [f"{rel} imports {module}" for module in _imports(path) if _package_of(module) == "library"]
    return problems


def _violations() -> list[str]:
    problems = []
    for path in SRC.rglob("*.py"):
        rel = path.relative_to(SRC)
        own = rel.parts[0].removesuffix(".py") if len(rel.parts) > 1 or rel.stem != "__init__" else "__init__"
        own_layer = LAYERS.get(own)
        if own_layer is None:
            problems.append(f"{rel}: package {own!r} has no layer in DESIGN.md §2")
            continue
        for module in _imports(path):
            other = _package_of(module)
            if other is None or other == own:
                continue
            if LAYERS.get(other, 99) > own_layer or (own, other) in FORBIDDEN:
                problems.append(f"{rel} imports {module} ({own} L{own_layer} -> {other} L{LAYERS.get(other)})")
    return problems


def test_every_module_respects_the_layers() -> None:
    assert _violations() == []


def test_nothing_outside_the_library_imports_it() -> None:
    assert _library_imports() == []


def test_checker_sees_a_violation(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text("from weft.server import app\nimport weft.ai.agent\n")
    assert _imports(bad) == ["weft.server", "weft.ai.agent"]
    assert LAYERS["engine"] < LAYERS["server"]
    assert _package_of("weft.library.core.set") == "library"
