"""The sandboxed JavaScript runtime: QuickJS contexts with the bundle pre-loaded, one per thread.

A QuickJS runtime must only ever be used from the thread that created it, so the pool is thread-local:
each thread lazily creates one :class:`JsRuntime` and reuses it for every expression and Code run. After a
timeout, an out-of-memory error or a stack overflow the runtime is dropped and the next call builds a new
one.

QuickJS refuses to call into Python while a time limit is set, so the sandbox has no host callbacks at all:
when JavaScript needs data it does not have (another node's output, a paired item, more input items), it
records a *need* and stops; :mod:`weft.expressions.session` supplies the data and the evaluation runs again.
Nothing in the sandbox can reach files, sockets, processes or the environment.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from pathlib import Path
from typing import Any

import _quickjs

from weft.errors import ConfigurationError
from weft.expressions.context import ExpressionLimits

BUNDLE = Path(__file__).with_name("_js") / "runtime.js"
BUILD_COMMAND = "python scripts/build_js.py"
#: Code node sources start this many lines down, so their stack frames are told apart from the bundle's.
CODE_LINE_OFFSET = 1000

JsObject = Any
"""A ``_quickjs.Object`` (a JavaScript value held by Python)."""

_API_FUNCTIONS = (
    "begin",
    "setItems",
    "setNode",
    "setRun",
    "setPaired",
    "setParam",
    "setEnv",
    "codeStart",
    "codeFinish",
)

_bundle_source: str | None = None
_bundle_lock = threading.Lock()


def bundle_source() -> str:
    """The bundled JavaScript (Luxon, Intl polyfill, jmespath, Weft's runtime), read once."""
    global _bundle_source
    with _bundle_lock:
        if _bundle_source is None:
            if not BUNDLE.exists():
                raise ConfigurationError(
                    f"The expression runtime bundle {str(BUNDLE)!r} is missing. "
                    f"Build it with {BUILD_COMMAND!r} (needs Node.js and npm)."
                )
            source = BUNDLE.read_text(encoding="utf-8")
            if source.count("\n") >= CODE_LINE_OFFSET:
                raise ConfigurationError(f"The bundle {str(BUNDLE)!r} has too many lines; rebuild it minified.")
            _bundle_source = source
        return _bundle_source


class JsRuntime:
    """One QuickJS context with the bundle loaded, the compiled-function cache and the bound session."""

    FUNCTION_CACHE_SIZE = 4096

    def __init__(self, limits: ExpressionLimits) -> None:
        self.limits = ExpressionLimits(time_s=limits.time_s, memory_bytes=limits.memory_bytes)
        self.context = _quickjs.Context()
        self.context.eval(bundle_source())
        self.context.set_memory_limit(limits.memory_bytes)
        self.context.set_time_limit(limits.time_s)
        self.context.set_max_stack_size(1024 * 1024)
        self.api: dict[str, JsObject] = {name: self.context.eval(f"__weft.{name}") for name in _API_FUNCTIONS}
        self._functions: OrderedDict[str, JsObject] = OrderedDict()
        self.session: Any = None
        """The :class:`~weft.expressions.session.Session` whose data is loaded in the context."""

    def matches(self, limits: ExpressionLimits) -> bool:
        return self.limits.time_s == limits.time_s and self.limits.memory_bytes == limits.memory_bytes

    def function(self, source: str) -> JsObject:
        """The compiled function for ``source`` (cached); raises ``_quickjs.JSException`` on bad syntax."""
        fn = self._functions.get(source)
        if fn is None:
            fn = self.context.eval(source)
            self._functions[source] = fn
            if len(self._functions) > self.FUNCTION_CACHE_SIZE:
                self._functions.popitem(last=False)
        return fn

    def to_js(self, json_text: str) -> JsObject:
        """A JavaScript value parsed from JSON text."""
        return self.context.parse_json(json_text)

    def run_jobs(self) -> None:
        """Run pending promise jobs (async Code) until none is left."""
        while self.context.execute_pending_job():
            pass


class _Pool(threading.local):
    runtime: JsRuntime | None = None


_pool = _Pool()


def get_runtime(limits: ExpressionLimits) -> JsRuntime:
    """This thread's runtime, created (about 0.25 s) on first use or when the limits change."""
    runtime = _pool.runtime
    if runtime is None or not runtime.matches(limits):
        runtime = JsRuntime(limits)
        _pool.runtime = runtime
    return runtime


def discard_runtime() -> None:
    """Drop this thread's runtime (after a timeout or out-of-memory); the next call builds a fresh one."""
    _pool.runtime = None
