"""Fakes shipped with Weft for tests and demos; none of them needs a key or the internet.

* :class:`ScriptedChatModel`, :class:`FunctionChatModel`, :class:`DemoChatModel`: chat models without I/O.
* :class:`FakeOpenAIServer`, :class:`FakeAnthropicServer`: scripted provider servers on 127.0.0.1, so the real
  SDK adapters can be tested over HTTP. Pytest fixtures for them are in ``weft.testing.pytest_plugin``.
* :class:`OracleOpenAIServer`: the scripted model the recorded n8n cases (``tests/recorded``) were run against.
* :class:`HttpEchoServer`: an HTTP server on 127.0.0.1 that answers each request with what it received.

Importing this package does not import pytest.
"""

from weft.ai.models._turns import ScriptedToolCall, ScriptedTurn, parse_turn, parse_turns
from weft.ai.models.demo import DemoChatModel
from weft.ai.models.scripted import FunctionChatModel, ScriptedChatModel
from weft.testing._fake_http import FakeServerError, RecordedRequest
from weft.testing.fake_anthropic import FakeAnthropicServer
from weft.testing.fake_openai import FakeOpenAIServer
from weft.testing.http_echo import HttpEchoServer
from weft.testing.oracle_openai import OracleOpenAIServer

__all__ = [
    "DemoChatModel",
    "FakeAnthropicServer",
    "FakeOpenAIServer",
    "FakeServerError",
    "FunctionChatModel",
    "HttpEchoServer",
    "OracleOpenAIServer",
    "RecordedRequest",
    "ScriptedChatModel",
    "ScriptedToolCall",
    "ScriptedTurn",
    "parse_turn",
    "parse_turns",
]
