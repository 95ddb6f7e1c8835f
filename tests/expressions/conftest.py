"""Shared set-up for expression tests: the JS bundle is built once (quick when up to date)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(Path(__file__).resolve().parent))  # expr_fixtures


@pytest.fixture(scope="session", autouse=True)
def js_bundle() -> Path:
    spec = importlib.util.spec_from_file_location("build_js", ROOT / "scripts" / "build_js.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["build_js"] = module
    spec.loader.exec_module(module)
    path: Path = module.build()
    return path
