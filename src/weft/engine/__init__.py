"""The engine (L4): the execution loop, pure scheduling, engine requests, outcomes, hooks, partial runs."""

from weft.engine.hooks import ExecutionHooks
from weft.engine.loop import Execution
from weft.engine.options import EngineOptions
from weft.engine.run import run_workflow
from weft.engine.services import LocalServices

__all__ = ["EngineOptions", "Execution", "ExecutionHooks", "LocalServices", "run_workflow"]
