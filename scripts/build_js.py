#!/usr/bin/env python3
"""Build the JavaScript bundles of the expression sandbox.

``js/`` holds a pinned ``package.json`` and ``package-lock.json`` (Luxon, the formatjs Intl polyfill,
jmespath, esbuild) and Weft's own sources under ``js/src/``. This script runs ``npm ci`` when the lockfile
changed and bundles, with esbuild, into ``src/weft/expressions/_js/`` (build products, git-ignored):

* ``runtime.js`` from ``js/src/index.js``: the core every context loads (``$``-variables, extensions, jmespath);
* ``luxon.js`` from ``js/src/luxon/index.js``: the Intl polyfill and Luxon, loaded on first use;
* ``extras.js`` from ``js/src/extras/index.js``: the helpers of ``hash()`` and ``replaceSpecialChars()``;
* ``locale-<tag>.js`` from ``js/src/locales/<tag>.js``: one locale's Intl data, loaded when first asked for.

It also builds the web editor: ``editor/`` (Vue 3, Vue Flow, Vite, TypeScript; pinned ``package.json`` and
``package-lock.json``) is type-checked with ``vue-tsc`` and built with ``vite build`` into
``src/weft/server/editor_dist/`` (a build product, git-ignored, shipped in the wheel), served by ``weft start``
at ``/``.

It is idempotent: when nothing changed since the last build it returns at once.

Usage: ``python scripts/build_js.py [--force]``
"""

from __future__ import annotations

import hashlib
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
JS = ROOT / "js"
OUT_DIR = ROOT / "src" / "weft" / "expressions" / "_js"
OUT = OUT_DIR / "runtime.js"
LUXON_OUT = OUT_DIR / "luxon.js"
#: Locale data bundles, one per locale (``js/src/locales/<tag>.js``), loaded on demand into a context.
LOCALES = sorted(p.stem for p in (JS / "src" / "locales").glob("*.js"))
#: Output name → entry point (esbuild's ``name=entry`` syntax builds them all in one run).
ENTRIES = {
    OUT: "src/index.js",
    LUXON_OUT: "src/luxon/index.js",
    OUT_DIR / "extras.js": "src/extras/index.js",
    OUT_DIR / "markdown.js": "src/markdown/index.js",
    **{OUT_DIR / f"locale-{tag}.js": f"src/locales/{tag}.js" for tag in LOCALES},
}
STAMP_PREFIX = "// weft-js-build "
ESBUILD_ARGS = ["--bundle", "--format=iife", "--target=es2022", "--minify", "--charset=utf8"]


def _inputs_digest() -> str:
    digest = hashlib.sha256()
    for path in [JS / "package.json", JS / "package-lock.json", *sorted((JS / "src").rglob("*.js"))]:
        digest.update(str(path.relative_to(JS)).encode())
        digest.update(path.read_bytes())
    digest.update(" ".join([*ESBUILD_ARGS, *(f"{out.stem}={entry}" for out, entry in ENTRIES.items())]).encode())
    return digest.hexdigest()


def _run(cmd: list[str], cwd: Path = JS) -> None:
    result = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, check=False)
    if result.returncode != 0:
        sys.stderr.write(result.stdout + result.stderr)
        raise SystemExit(f"build_js: {' '.join(cmd)!r} failed with exit code {result.returncode}")


def _npm_ci_if_needed(folder: Path = JS) -> None:
    installed = folder / "node_modules" / ".package-lock.json"
    lock = folder / "package-lock.json"
    if installed.exists() and installed.stat().st_mtime >= lock.stat().st_mtime:
        return
    _run(["npm", "ci", "--no-audit", "--no-fund"], cwd=folder)


def build(force: bool = False) -> Path:
    """Build the bundles unless they are up to date; returns the path of the core bundle."""
    digest = _inputs_digest()
    if not force and all(_built_digest(out) == digest for out in ENTRIES):
        return OUT
    if shutil.which("npm") is None:
        raise SystemExit("build_js: npm is not installed; install Node.js 18+ to build the expression runtime")
    _npm_ci_if_needed()
    OUT_DIR.mkdir(parents=True, exist_ok=True)
    tmp_dir = OUT_DIR / ".build"
    shutil.rmtree(tmp_dir, ignore_errors=True)
    entries = [f"{out.stem}={entry}" for out, entry in ENTRIES.items()]
    esbuild = str(JS / "node_modules" / ".bin" / "esbuild")
    _run([esbuild, *entries, *ESBUILD_ARGS, f"--outdir={tmp_dir}", "--log-level=warning"])
    for out in ENTRIES:
        built = tmp_dir / out.name
        built.write_text(f"{STAMP_PREFIX}{digest}\n" + built.read_text(encoding="utf-8"), encoding="utf-8")
        built.replace(out)
    shutil.rmtree(tmp_dir, ignore_errors=True)
    return OUT


def _built_digest(path: Path) -> str | None:
    if not path.exists():
        return None
    with path.open(encoding="utf-8") as f:
        first = f.readline().strip()
    return first[len(STAMP_PREFIX) :] if first.startswith(STAMP_PREFIX) else None


EDITOR = ROOT / "editor"
EDITOR_OUT = ROOT / "src" / "weft" / "server" / "editor_dist"
EDITOR_STAMP = EDITOR_OUT / ".weft-build"
EDITOR_INPUTS = ("package.json", "package-lock.json", "index.html", "vite.config.ts", "tsconfig.json")


def _editor_digest() -> str:
    digest = hashlib.sha256()
    sources = sorted(p for p in (EDITOR / "src").rglob("*") if p.is_file())
    for path in [*(EDITOR / name for name in EDITOR_INPUTS), *sources]:
        digest.update(str(path.relative_to(EDITOR)).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


def build_editor(force: bool = False) -> Path:
    """Build the web editor into ``editor_dist/`` unless it is up to date; returns its ``index.html``."""
    digest = _editor_digest()
    index = EDITOR_OUT / "index.html"
    if not force and index.exists() and EDITOR_STAMP.exists() and EDITOR_STAMP.read_text().strip() == digest:
        return index
    if shutil.which("npm") is None:
        raise SystemExit("build_js: npm is not installed; install Node.js 20.19+ to build the web editor")
    _npm_ci_if_needed(EDITOR)
    bin_dir = EDITOR / "node_modules" / ".bin"
    _run([str(bin_dir / "vue-tsc"), "--noEmit"], cwd=EDITOR)
    _run([str(bin_dir / "vite"), "build", "--logLevel", "warn"], cwd=EDITOR)
    EDITOR_STAMP.write_text(digest + "\n")
    return index


if __name__ == "__main__":
    build(force="--force" in sys.argv[1:])
    build_editor(force="--force" in sys.argv[1:])
    total = sum(out.stat().st_size for out in ENTRIES) // 1024
    print(f"build_js: {len(ENTRIES)} bundles in {OUT_DIR.relative_to(ROOT)} are up to date ({total} KiB)")
    editor = sum(p.stat().st_size for p in EDITOR_OUT.rglob("*") if p.is_file()) // 1024
    print(f"build_js: the web editor in {EDITOR_OUT.relative_to(ROOT)} is up to date ({editor} KiB)")
