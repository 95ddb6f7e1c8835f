"""Every package re-exports its public names with ``__all__``, and every module imports on its own."""

from __future__ import annotations

import importlib
import pkgutil
import subprocess
import sys

import pytest

import weft

PACKAGES = ["weft.workflow", "weft.nodes", "weft.engine", "weft.expressions"]


@pytest.mark.parametrize("package", PACKAGES)
def test_all_names_exist_and_public_names_are_listed(package: str) -> None:
    module = importlib.import_module(package)
    exported = set(module.__all__)
    assert all(hasattr(module, name) for name in exported)
    public = {
        name
        for name, value in vars(module).items()
        if not name.startswith("_") and str(getattr(value, "__module__", "")).startswith("weft")
    }
    assert public <= exported, f"{package} exposes names missing from __all__: {sorted(public - exported)}"


def _modules() -> list[str]:
    names = (m.name for m in pkgutil.walk_packages(weft.__path__, "weft."))
    return sorted(n for n in names if "__main__" not in n and ".migrations" not in n)


def test_every_module_imports_in_a_fresh_interpreter() -> None:
    code = "import importlib,sys\nfor m in sys.argv[1:]: importlib.import_module(m)"
    command = [sys.executable, "-c", code, *_modules()]
    result = subprocess.run(command, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr[-2000:]


def test_execute_startup_imports_stay_small() -> None:
    code = "import sys, weft.cli, weft.engine, weft.workflow; print(len(sys.modules))"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True)
    heavy = (
        "import sys, weft.cli, weft.engine\n"
        "print(sorted(m for m in ('fastapi', 'sqlalchemy', 'openai', 'httpx') if m in sys.modules))"
    )
    loaded = subprocess.run([sys.executable, "-c", heavy], capture_output=True, text=True, timeout=60, check=True)
    assert loaded.stdout.strip() == "[]", f"`weft execute` start-up imports heavy modules: {loaded.stdout}"
    assert int(result.stdout) < 400
