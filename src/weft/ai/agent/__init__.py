"""The AI Agent: a node that asks the engine to run its tools (chapter 19) instead of running them itself."""

from weft.ai.agent.execute import execute_agent
from weft.ai.agent.node import Agent
from weft.ai.agent.state import AgentState, ItemState, PendingCall

__all__ = ["Agent", "AgentState", "ItemState", "PendingCall", "execute_agent"]
