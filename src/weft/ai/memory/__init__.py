"""Chat memory: the Simple Memory node and the memory object agents load and save."""

from weft.ai.memory.chat_memory import WindowChatMemory, window_by_turns
from weft.ai.memory.store import PROCESS_STORE, InMemoryChatMemoryStore

__all__ = ["PROCESS_STORE", "InMemoryChatMemoryStore", "WindowChatMemory", "window_by_turns"]
