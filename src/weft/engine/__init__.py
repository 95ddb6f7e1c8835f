"""The engine (L4): the execution loop, pure scheduling, engine requests, outcomes, hooks, partial runs."""

from weft.engine.hooks import ExecutionHooks
from weft.engine.loop import EngineOptions, Execution
from weft.engine.run import run_workflow

__all__ = ["EngineOptions", "Execution", "ExecutionHooks", "run_workflow"]
