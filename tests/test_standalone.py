"""The repository stands alone: nothing a user runs or tests reads a file beside the checkout."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: A path to the folders beside the checkout: the shared folder or the tool library (their names are put
#: together here so that this file does not itself name them).
_BESIDE = ("sha" + "red", r"\.lib" + "rary")
_OUTSIDE = re.compile(r"\.\./(?:" + "|".join(_BESIDE) + r")|/work/" + _BESIDE[0] + r'|"' + _BESIDE[0] + r'" / "')


def _files() -> list[Path]:
    out = [ROOT / "README.md"]
    for folder in ("tests", "bench", "examples", "scripts", "src", ".ci"):
        out += [p for p in (ROOT / folder).rglob("*") if p.is_file() and p.suffix in {".py", ".md", ".sh", ""}]
    return [p for p in out if not any(part.endswith("egg-info") or part == "__pycache__" for part in p.parts)]


def test_nothing_reads_outside_the_checkout() -> None:
    offenders = [
        f"{p.relative_to(ROOT)}:{n}"
        for p in _files()
        for n, line in enumerate(p.read_text(errors="replace").splitlines(), 1)
        if _OUTSIDE.search(line)
    ]
    assert offenders == []


def test_readme_examples_exist() -> None:
    readme = (ROOT / "README.md").read_text()
    for name in re.findall(r"examples/[\w.-]+", readme):
        assert (ROOT / name).exists(), name
