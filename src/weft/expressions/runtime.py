"""The sandboxed JavaScript runtime: QuickJS contexts with the bundle pre-loaded.

Each thread has one *expression* context, reused by every expression of every execution, and frozen
(:mod:`weft.expressions.harden`) before any expression runs in it: no expression can leave a global, a
prototype or a wrapped ``$json`` behind, so the context needs no reset between executions. A Code node run gets a
*fresh* context of its own (:func:`code_runtime`), as n8n's task runner gives each run a new VM context: its
globals, timers and jobs die with it. After a timeout, an out-of-memory error or a stack overflow the contexts are
dropped and the next call builds new ones.

The promise jobs an expression leaves (an ``async`` function it called) run when the thread's context moves on to
another execution, before that execution's data is loaded (:meth:`JsRuntime.end_session`): none ever sees
another execution's data, and the node runs of one execution pay nothing for a queue that is almost always empty.

Building a context (parsing the bundle, freezing it) takes several milliseconds: :func:`prepare_runtime` builds one
ahead, in a background thread, while the process does the rest of its start-up (QuickJS gives the interpreter lock
back while it works); the first thread whose expressions need a context takes it, and no other thread ever gets
it. The binding points QuickJS's stack limit at the calling thread on every call, so a context built in one thread
runs safely in another, one thread at a time.

QuickJS refuses to call into Python while a time limit is set, so the sandbox has no host callbacks at all:
when JavaScript needs data it does not have (another node's output, a paired item, more input items), it
records a *need* and stops; :mod:`weft.expressions.session` supplies the data and the evaluation runs again.
Nothing in the sandbox can reach files, sockets, processes or the environment.

A context starts with the small core bundle (``runtime.js``: the ``$``-variables, the extension methods,
jmespath). Luxon and the Intl polyfill (``luxon.js``, about 2 MB and 0.2 s to evaluate), the helpers of
``extras.js`` and the locale data are loaded the first time a source mentions them (:func:`needs_luxon`) or
JavaScript asks for them (a need of kind ``luxon``, ``bundle`` or ``locale``). A frozen context cannot take
them in: it is rebuilt with them, frozen again, and keeps them from then on (:attr:`JsRuntime.generation`
tells its users that compiled functions and the session are gone).
"""

from __future__ import annotations

import re
import threading
import time
import weakref
from collections import OrderedDict
from dataclasses import replace
from pathlib import Path
from typing import Any

import _quickjs

from weft.errors import ConfigurationError
from weft.expressions.context import ExpressionContext, ExpressionLimits
from weft.expressions.harden import HARDEN

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

#: Names that mean a source uses Luxon or Intl: the globals (as words: the Code node's ``setInterval`` is not
#: one), ``$now``/``$today``, the ``toLocale*`` methods the Intl polyfill replaces and the extension methods built
#: on Luxon. A false positive only loads Luxon early (for a Code node: on every run, in its fresh context).
_LUXON_WORDS = re.compile(
    r"\b(?:DateTime|Duration|Interval|Intl)\b|\$now|\$today|toLocale|format|beginningOf|endOfMonth|extract|isBetween"
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
    """One QuickJS context with the bundles loaded, the compiled-function cache and the bound session.

    ``frozen`` contexts (the expression context of a thread) are hardened before user code runs; the others
    (one per Code node run) are thrown away after their run instead."""

    FUNCTION_CACHE_SIZE = 4096

    def __init__(self, limits: ExpressionLimits, *, frozen: bool = True) -> None:
        self.limits = ExpressionLimits(
            time_s=limits.time_s, code_time_s=limits.code_time_s, memory_bytes=limits.memory_bytes
        )
        self.frozen = frozen
        self.bundles: tuple[str, ...] = ()
        """The bundles loaded besides the core, in load order (``luxon``, ``extras``, ``locale-de`` …)."""
        self.generation = 0
        """Counts the builds of the context: functions compiled and sessions bound before a rebuild are gone."""
        self._build()

    def _build(self) -> None:
        self.context = _quickjs.Context()
        self.context.eval(bundle_source())
        for name in self.bundles:
            self.context.eval(_read_bundle(BUNDLE.with_name(f"{name}.js")))
        self.api: dict[str, JsObject] = {name: self.context.eval(f"__weft.{name}") for name in _API_FUNCTIONS}
        if self.frozen:
            self.context.eval(HARDEN)
        self.context.set_memory_limit(self.limits.memory_bytes)
        self.call_limit = self.limits.time_s
        """The time limit of each call into the context now (see :meth:`limit_calls`)."""
        self.budgeted = False
        self.context.set_time_limit(self.call_limit)
        self.context.set_max_stack_size(1024 * 1024)
        self._functions: OrderedDict[str, JsObject] = OrderedDict()
        self.session: Any = None
        """The :class:`~weft.expressions.session.Session` whose data is loaded in the context."""
        self.generation += 1

    @property
    def luxon_loaded(self) -> bool:
        return "luxon" in self.bundles

    def matches(self, limits: ExpressionLimits) -> bool:
        return self.limits == limits

    def adopt(self, limits: ExpressionLimits) -> bool:
        """Take ``limits`` if the context was built for the same memory limit (the time limits apply per call)."""
        if limits.memory_bytes != self.limits.memory_bytes:
            return False
        self.limits = replace(limits)
        self.limit_calls(limits.time_s)
        return True

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
        """Load the Luxon bundle in this context (once), outside the limits of an evaluation."""
        self._load("luxon")

    def load_locale(self, tag: str) -> None:
        """Load the Intl data of locale ``tag`` (``js/src/luxon/locales.js`` asks for it once per context)."""
        if not _LOCALE_TAG.fullmatch(tag):
            raise ConfigurationError(f"The expression runtime asked for a bad locale bundle {tag!r}.")
        self._load(f"locale-{tag}")

    def load_bundle(self, name: str) -> None:
        """Load one of the bundles loaded on first use (``extras``: the hash and transliteration helpers)."""
        if name not in _ON_DEMAND_BUNDLES:
            raise ConfigurationError(f"The expression runtime asked for an unknown bundle {name!r}.")
        self._load(name)

    def _load(self, name: str) -> None:
        """Trusted code only runs before the freeze: a frozen context is rebuilt with the bundle added."""
        if name in self.bundles:
            return
        if name.startswith("locale-") and not self.luxon_loaded:
            self.bundles += ("luxon",)
        source = _read_bundle(BUNDLE.with_name(f"{name}.js"))
        self.bundles += (name,)
        if self.frozen:
            self._build()
            return
        self.context.set_time_limit(-1)
        self.context.set_memory_limit(-1)
        try:
            self.context.eval(source)
        finally:
            self.context.set_memory_limit(self.limits.memory_bytes)
            self.context.set_time_limit(self.call_limit)

    def limit_calls(self, seconds: float, *, budget: bool = False) -> None:
        """Interrupt each call into the context after ``seconds``: a Code node's calls get what is left of its
        run's limit; an evaluation on the event loop gets a short ``budget``
        (:data:`weft.expressions.offload.LOOP_BUDGET_S`), after which it goes on in a worker thread."""
        self.budgeted = budget
        if seconds != self.call_limit:
            self.context.set_time_limit(seconds)
            self.call_limit = seconds

    def over_budget(self, exc: BaseException) -> bool:
        """Whether ``exc`` is an interruption by the event loop's budget (not by the evaluation's own limit)."""
        return self.budgeted and "interrupted" in str(exc)

    def to_js(self, json_text: str) -> JsObject:
        """A JavaScript value parsed from JSON text."""
        return self.context.parse_json(json_text)

    def run_jobs(self) -> None:
        """Run pending promise jobs until none is left, within the time limit (else ``interrupted``)."""
        if not self.context.execute_pending_job():
            return
        deadline = time.monotonic() + self.limits.time_s
        while self.context.execute_pending_job():
            if time.monotonic() > deadline:
                raise _quickjs.JSException("InternalError: interrupted")

    def end_session(self, *, run_jobs: bool = True) -> None:
        """Close the bound session before another begins. Unless ``run_jobs`` is false (the next session is of
        the same execution), the promise jobs its evaluations left run now, with its own data still loaded, so
        none ever sees another execution's. If they do not end within the time limit (an endless async loop) or
        fail the context, the context is rebuilt and the jobs are gone."""
        if run_jobs:
            try:
                self.run_jobs()
            except (_quickjs.JSException, _quickjs.StackOverflow):
                self._build()
        self.session = None


class _Pool(threading.local):
    runtime: JsRuntime | None = None
    code: JsRuntime | None = None
    code_owner: weakref.ref[ExpressionContext] | None = None


_pool = _Pool()


def get_runtime(limits: ExpressionLimits) -> JsRuntime:
    """This thread's expression runtime (frozen): on first use or when the limits change, the one
    :func:`prepare_runtime` built ahead if it fits, else a new one (a few milliseconds, Luxon comes later)."""
    runtime = _pool.runtime
    if runtime is None or not runtime.matches(limits):
        runtime = _take_prepared(limits) or JsRuntime(limits)
        _pool.runtime = runtime
    return runtime


class _Build:
    """One runtime being built ahead: the thread building it and, once it ends, the runtime (``None`` if the
    build failed: the thread that needs one builds it itself and reports the error)."""

    def __init__(self, limits: ExpressionLimits) -> None:
        self.limits = replace(limits)
        self.runtime: JsRuntime | None = None
        self.thread = threading.Thread(target=self._run, name="weft-sandbox-prepare")

    def _run(self) -> None:
        try:
            self.runtime = JsRuntime(self.limits)
        except Exception:  # reported by the build the first expression then makes itself
            self.runtime = None


_prepared: _Build | None = None
_prepared_lock = threading.Lock()


def prepare_runtime(limits: ExpressionLimits) -> None:
    """Start building a frozen expression runtime for ``limits`` in a background thread, unless one is built
    or being built already; it goes to the first thread that needs one (:func:`get_runtime`), and to it alone."""
    global _prepared
    with _prepared_lock:
        if _prepared is not None or _pool.runtime is not None:
            return
        build = _prepared = _Build(limits)
    build.thread.start()


def _take_prepared(limits: ExpressionLimits) -> JsRuntime | None:
    """The runtime built ahead, if there is one for ``limits`` (waiting for the end of its build), else None."""
    global _prepared
    with _prepared_lock:
        build = _prepared
        if build is None or build.limits.memory_bytes != limits.memory_bytes:
            return None
        _prepared = None  # claimed: no other thread can take it
    build.thread.join()
    runtime = build.runtime
    return runtime if runtime is not None and runtime.adopt(limits) else None


def code_runtime(ctx: ExpressionContext) -> JsRuntime:
    """A fresh runtime for the Code node run ``ctx`` (the items of one run, per item, share it)."""
    owner = _pool.code_owner
    runtime = _pool.code
    limits = replace(ctx.limits, time_s=ctx.limits.code_time_s)  # the run's limit; each call gets what is left
    if runtime is None or owner is None or owner() is not ctx or not runtime.matches(limits):
        runtime = JsRuntime(limits, frozen=False)
        _pool.code = runtime
        _pool.code_owner = weakref.ref(ctx)
    return runtime


def release_code_runtime(runtime: JsRuntime) -> None:
    """Drop ``runtime``, a Code node run's context, once the run is over (a worker thread would otherwise keep it,
    and all the data the run made, until its next Code node run)."""
    if _pool.code is runtime:
        _pool.code = None
        _pool.code_owner = None


def discard_runtime() -> None:
    """Drop this thread's runtimes (after a timeout or out-of-memory); the next call builds fresh ones."""
    _pool.runtime = None
    _pool.code = None
    _pool.code_owner = None
