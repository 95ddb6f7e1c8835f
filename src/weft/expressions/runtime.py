"""The sandboxed JavaScript runtime: QuickJS contexts with the bundle pre-loaded, one per thread.

A QuickJS runtime must only ever be used from the thread that created it, so the pool is thread-local:
each thread lazily creates one :class:`JsRuntime` and reuses it for every expression and Code run. After a
timeout, an out-of-memory error or a stack overflow the runtime is dropped and the next call builds a new
one.

QuickJS refuses to call into Python while a time limit is set, so the sandbox has no host callbacks at all:
when JavaScript needs data it does not have (another node's output, a paired item, more input items), it
records a *need* and stops; :mod:`weft.expressions.session` supplies the data and the evaluation runs again.
Nothing in the sandbox can reach files, sockets, processes or the environment.

A context starts with the small core bundle (``runtime.js``: the ``$``-variables, the extension methods,
jmespath). Luxon and the Intl polyfill (``luxon.js``, about 2 MB and 0.2 s to evaluate) are loaded the first
time the context compiles a source that mentions them (:func:`needs_luxon`), or when JavaScript reaches one of
their traps anyway, which asks for them as a need of kind ``luxon`` (``js/src/runtime/luxon.js``).
"""

from __future__ import annotations

import re
import threading
from collections import OrderedDict
from pathlib import Path
from typing import Any

import _quickjs

from weft.errors import ConfigurationError
from weft.expressions.context import ExpressionLimits

BUNDLE = Path(__file__).with_name("_js") / "runtime.js"
LUXON_BUNDLE = BUNDLE.with_name("luxon.js")
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

#: Names that mean a source uses Luxon or Intl: the globals, ``$now``/``$today``, the ``toLocale*`` methods the
#: Intl polyfill replaces and the extension methods built on Luxon. A false positive only loads Luxon early.
_LUXON_WORDS = re.compile(
    r"DateTime|Duration|Interval|Intl|\$now|\$today|toLocale|format|beginningOf|endOfMonth|extract|isBetween"
    r"|isInLast|isWeekend|isDst|diffTo|plus|minus"
)

_ON_DEMAND_BUNDLES = frozenset({"extras"})
_LOCALE_TAG = re.compile(r"[a-z]{2,3}(?:-[A-Z]{2})?")

_sources: dict[Path, str] = {}
_bundle_lock = threading.Lock()


def _read_bundle(path: Path) -> str:
    with _bundle_lock:
        source = _sources.get(path)
        if source is None:
            if not path.exists():
                raise ConfigurationError(
                    f"The expression runtime bundle {str(path)!r} is missing. "
                    f"Build it with {BUILD_COMMAND!r} (needs Node.js and npm)."
                )
            source = path.read_text(encoding="utf-8")
            if source.count("\n") >= CODE_LINE_OFFSET:
                raise ConfigurationError(f"The bundle {str(path)!r} has too many lines; rebuild it minified.")
            _sources[path] = source
        return source


def bundle_source() -> str:
    """The core bundle (Weft's runtime, the extension methods, jmespath), read once."""
    return _read_bundle(BUNDLE)


def luxon_source() -> str:
    """The second bundle (the Intl polyfill and Luxon), read once, the first time a context needs it."""
    return _read_bundle(LUXON_BUNDLE)


def needs_luxon(source: str) -> bool:
    """Whether ``source`` visibly uses Luxon or Intl (the traps catch the uses a scan cannot see)."""
    return _LUXON_WORDS.search(source) is not None


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
        self.luxon_loaded = False
        self.session: Any = None
        """The :class:`~weft.expressions.session.Session` whose data is loaded in the context."""

    def matches(self, limits: ExpressionLimits) -> bool:
        return self.limits.time_s == limits.time_s and self.limits.memory_bytes == limits.memory_bytes

    def function(self, source: str) -> JsObject:
        """The compiled function for ``source`` (cached); raises ``_quickjs.JSException`` on bad syntax."""
        fn = self._functions.get(source)
        if fn is None:
            if not self.luxon_loaded and needs_luxon(source):
                self.load_luxon()
            fn = self.context.eval(source)
            self._functions[source] = fn
            if len(self._functions) > self.FUNCTION_CACHE_SIZE:
                self._functions.popitem(last=False)
        return fn

    def load_luxon(self) -> None:
        """Evaluate the Luxon bundle in this context (once), outside the limits of an evaluation."""
        if self.luxon_loaded:
            return
        self._eval_unlimited(luxon_source())
        self.luxon_loaded = True

    def load_locale(self, tag: str) -> None:
        """Evaluate the Intl data of locale ``tag`` (``js/src/luxon/locales.js`` asks for it once per context)."""
        if not _LOCALE_TAG.fullmatch(tag):
            raise ConfigurationError(f"The expression runtime asked for a bad locale bundle {tag!r}.")
        self._eval_unlimited(_read_bundle(BUNDLE.with_name(f"locale-{tag}.js")))

    def load_bundle(self, name: str) -> None:
        """Evaluate one of the bundles loaded on first use (``extras``: the hash and transliteration helpers)."""
        if name not in _ON_DEMAND_BUNDLES:
            raise ConfigurationError(f"The expression runtime asked for an unknown bundle {name!r}.")
        self._eval_unlimited(_read_bundle(BUNDLE.with_name(f"{name}.js")))

    def _eval_unlimited(self, source: str) -> None:
        self.context.set_time_limit(-1)
        self.context.set_memory_limit(-1)
        try:
            self.context.eval(source)
        finally:
            self.context.set_memory_limit(self.limits.memory_bytes)
            self.context.set_time_limit(self.limits.time_s)

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
    """This thread's runtime, created (a few milliseconds, Luxon comes later) on first use or when the limits change."""
    runtime = _pool.runtime
    if runtime is None or not runtime.matches(limits):
        runtime = JsRuntime(limits)
        _pool.runtime = runtime
    return runtime


def discard_runtime() -> None:
    """Drop this thread's runtime (after a timeout or out-of-memory); the next call builds a fresh one."""
    _pool.runtime = None
