"""``@n8n/n8n-nodes-langchain.toolWikipedia``: LangChain's ``WikipediaQueryRun`` as n8n configures it: search
English Wikipedia for the query, then fetch the plain-text extract of each of the first three results, joined as
``Page: <title>\\nSummary: <extract>`` and cut to 4,000 characters (UTF-16 units, as JavaScript's ``slice``).
Requests go through the kit's HTTP layer (the environment's proxies, ``WEFT_EXTRA_CA_CERTS``)."""

from __future__ import annotations

from typing import Any, ClassVar

import httpx

from weft.ai.tools.base import TOOL_OUTPUTS, ToolNode, string_input, string_input_schema
from weft.errors import NodeOperationError
from weft.nodes.contract import NodeContext, NodeDescription, ToolSpec
from weft.nodes.http.clients import new_client
from weft.nodes.tool_names import node_name_to_tool_name

API_URL = "https://en.wikipedia.org/w/api.php"
TOP_K_RESULTS = 3
MAX_CONTENT_LENGTH = 4000
WIKIPEDIA_DESCRIPTION = (
    "A tool for interacting with and fetching data from the Wikipedia API. The input should always be a string query."
)
NO_RESULT = "No good Wikipedia Search Result was found"
TIMEOUT_S = 60


class ToolWikipedia(ToolNode):
    """Wikipedia: ``{input: "query"}`` → ``{response: "Page: …\\nSummary: …"}``."""

    description: ClassVar[NodeDescription] = NodeDescription(
        name="@n8n/n8n-nodes-langchain.toolWikipedia",
        display_name="Wikipedia",
        versions=(1,),
        description="Search in Wikipedia",
        inputs=(),
        outputs=TOOL_OUTPUTS,
    )

    def tool_spec(self, ctx: NodeContext, item_index: int) -> ToolSpec:
        return ToolSpec(
            name=node_name_to_tool_name(ctx.node.name),
            description=WIKIPEDIA_DESCRIPTION,
            parameters=string_input_schema(),
            source_node_name=ctx.node.name,
        )

    async def respond(self, ctx: NodeContext, item_json: dict[str, Any], item_index: int) -> Any:
        query = string_input(item_json)
        try:
            async with new_client(timeout=TIMEOUT_S) as client:
                return await _search(client, query)
        except (httpx.HTTPError, ValueError, KeyError, TypeError) as exc:
            raise NodeOperationError(
                ctx.node.name,
                str(exc) or type(exc).__name__,
                description=f"Wikipedia's API ({API_URL}) could not be read.",
                item_index=item_index,
            ) from None


async def _get(client: httpx.AsyncClient, params: dict[str, str]) -> Any:
    response = await client.get(API_URL, params=params)
    if not response.is_success:
        raise ValueError("Network response was not ok")
    return response.json()


async def _search(client: httpx.AsyncClient, query: str) -> str:
    found = await _get(client, {"action": "query", "list": "search", "srsearch": query, "format": "json"})
    summaries = []
    for result in found["query"]["search"][:TOP_K_RESULTS]:
        title = str(result["title"])
        page_query = {"action": "query", "prop": "extracts", "explaintext": "true", "redirects": "1"}
        pages = (await _get(client, {**page_query, "format": "json", "titles": title}))["query"]["pages"]
        page = pages[next(iter(pages))] if pages else None
        if page:
            extract = page.get("extract")
            summaries.append(f"Page: {title}\nSummary: {'undefined' if extract is None else extract}")
    if not summaries:
        return NO_RESULT
    return _js_slice("\n\n".join(summaries), MAX_CONTENT_LENGTH)


def _js_slice(text: str, length: int) -> str:
    """``text.slice(0, length)`` in UTF-16 code units, as JavaScript counts them."""
    encoded = text.encode("utf-16-le")
    if len(encoded) <= length * 2:
        return text
    return encoded[: length * 2].decode("utf-16-le", errors="ignore")


__all__ = ["NO_RESULT", "WIKIPEDIA_DESCRIPTION", "ToolWikipedia"]
