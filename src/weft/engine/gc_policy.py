"""The garbage-collector policy of processes that run executions (``weft start``, ``weft worker``, ``weft execute``).

Executions allocate many short-lived containers that reference counting frees; CPython's cyclic collector, run every
700 allocations by default, then spends tens of milliseconds walking them and everything the process has loaded
(a tenth to a quarter of a 10,000-item run, ``bench/bench_engine.py``). Once a process has loaded what it keeps
(modules, the workflow, the server's state), :func:`settle` moves it out of the collector's reach (``gc.freeze``) and
collects cycles less often.
"""

from __future__ import annotations

import gc

#: ``gc.set_threshold`` after :func:`settle` (CPython's default is 700, 10, 10).
GC_THRESHOLDS = (20_000, 20, 20)


def settle() -> None:
    """Collect once, keep what exists now out of later collections, and collect cycles less often."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)


__all__ = ["GC_THRESHOLDS", "settle"]
