"""The official Python ``mcp`` SDK's client against a real Weft server: streamable HTTP and SSE, with and without
authentication (a wrong or missing token is refused before any session exists)."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from typing import Any

import httpx2
import pytest
from mcp.client.session import ClientSession
from mcp.client.sse import sse_client
from mcp.client.streamable_http import streamable_http_client

from ._workflows import BEARER_TOKEN, HEADER
from .conftest import McpServer


@contextlib.asynccontextmanager
async def streamable(url: str, headers: dict[str, str] | None = None) -> AsyncIterator[ClientSession]:
    async with (
        httpx2.AsyncClient(headers=headers, timeout=httpx2.Timeout(10, read=30)) as http,
        streamable_http_client(url, http_client=http) as (read, write),
        ClientSession(read, write) as session,
    ):
        await session.initialize()
        yield session


@contextlib.asynccontextmanager
async def sse(url: str, headers: dict[str, str] | None = None) -> AsyncIterator[ClientSession]:
    async with sse_client(url, headers=headers, timeout=10) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        yield session


def _text(result: Any) -> str:
    text: str = result.content[0].text
    return text


async def test_streamable_http_lists_and_calls_tools(mcp: McpServer, golden: dict[str, Any]) -> None:
    async with streamable(mcp.mcp_url("v2")) as session:
        listed = await session.list_tools()
        recorded = golden["streamable"]["tools_list"]["events"][0]["result"]["tools"]
        assert [t.name for t in listed.tools] == [t["name"] for t in recorded]
        calculator = next(t for t in listed.tools if t.name == "Calculator")
        assert calculator.input_schema == next(t["inputSchema"] for t in recorded if t["name"] == "Calculator")
        assert _text(await session.call_tool("Calculator", {"input": "2 + 3 * 4"})) == "14"
        assert _text(await session.call_tool("Code_Tool", {"a": 2, "b": "xy"})) == "xyxy"
        failed = await session.call_tool("Failing_Tool", {"input": "x"})
        assert _text(failed) == 'There was an error: "boom [line 1]"' and failed.is_error


async def test_sse_lists_and_calls_tools(mcp: McpServer) -> None:
    async with sse(mcp.mcp_url("v1") + "/sse") as session:
        assert {t.name for t in (await session.list_tools()).tools} == {"Calculator", "Failing_Tool"}
        assert _text(await session.call_tool("Calculator", {"input": "6*7"})) == "42"


async def test_many_sessions_at_once(mcp: McpServer) -> None:
    results: list[str] = []

    async def one(n: int) -> None:
        async with streamable(mcp.mcp_url("v2")) as session:
            for k in range(3):
                results.append(_text(await session.call_tool("Calculator", {"input": f"{n} * 10 + {k}"})))

    await asyncio.gather(*(one(n) for n in range(8)))
    assert sorted(results, key=int) == [str(n * 10 + k) for n in range(8) for k in range(3)]


GOOD = {"bearer": {"authorization": f"Bearer {BEARER_TOKEN}"}, "header": {HEADER[0]: HEADER[1]}}
WRONG = {"bearer": {"authorization": "Bearer nope"}, "header": {HEADER[0]: "nope"}}


def _leaves(error: BaseException) -> list[BaseException]:
    if isinstance(error, BaseExceptionGroup):
        return [leaf for inner in error.exceptions for leaf in _leaves(inner)]
    return [error]


@pytest.mark.parametrize("name", ["bearer", "header"])
async def test_streamable_http_with_auth(mcp: McpServer, name: str) -> None:
    async with streamable(mcp.mcp_url(name), GOOD[name]) as session:
        assert _text(await session.call_tool("Calculator", {"input": "1+1"})) == "2"
    before = len(mcp.executions(name))
    for headers in (WRONG[name], None):
        with pytest.raises(BaseException) as refused:  # the SDK wraps it in exception groups
            async with streamable(mcp.mcp_url(name), headers):
                pass
        # the SDK reports the HTTP 403 as an error response to its initialize request
        assert [str(e) for e in _leaves(refused.value)] == ["Server returned an error response"]
    assert len(mcp.executions(name)) == before


async def test_sse_with_auth(mcp: McpServer) -> None:
    url = mcp.mcp_url("bearer_v1") + "/sse"
    async with sse(url, GOOD["bearer"]) as session:
        assert _text(await session.call_tool("Calculator", {"input": "3*3"})) == "9"
    for headers in (WRONG["bearer"], None):
        with pytest.raises(Exception, match="403"):
            async with sse(url, headers):
                pass
