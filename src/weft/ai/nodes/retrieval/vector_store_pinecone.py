"""``@n8n/n8n-nodes-langchain.vectorStorePinecone``: Pinecone Vector Store (credential ``pineconeApi``: ``apiKey``).

Modes insert, load, retrieve and retrieve-as-tool over Pinecone's REST API, as LangChain's ``PineconeStore`` and
the Pinecone SDK send it: the index's host from the control plane (``GET https://api.pinecone.io/indexes/<name>``),
then ``POST /vectors/upsert`` (100 vectors a request, metadata flattened, the text under ``text``), ``POST
/query`` and ``POST /vectors/delete`` (Options > Clear Namespace, with a namespace). An insert into an index the
account does not have fails with n8n's "Index … not found". Scores are Pinecone's; a match scored 0 is dropped,
as LangChain does.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any, ClassVar
from urllib.parse import quote

from weft.ai.nodes.retrieval._common import options_of
from weft.ai.nodes.retrieval.vector_store_node import (
    EmbeddedBatch,
    NamedStore,
    VectorStoreNode,
    vector_store_inputs,
    vector_store_outputs,
)
from weft.ai.nodes.retrieval.vector_store_pgvector import metadata_filter
from weft.ai.nodes.retrieval.vector_store_update import update_by_id
from weft.ai.retrieval.backend_errors import VectorStoreBackendError
from weft.ai.retrieval.documents import Document
from weft.ai.retrieval.embeddings import Embeddings, Vector
from weft.ai.retrieval.vector_store import ScoredDocument
from weft.errors import NodeOperationError
from weft.nodes.api import ApiRequests
from weft.nodes.contract import ExecuteContext, NodeContext, NodeDescription
from weft.workflow import Item

CONTROL_PLANE = "https://api.pinecone.io"
API_VERSION = "2025-04"
TEXT_KEY = "text"
UPSERT_CHUNK = 100


def flatten(value: Mapping[str, Any], prefix: str = "") -> dict[str, Any]:
    """The ``flat`` package's ``flatten``: nested objects and arrays become ``a.b`` / ``a.0`` keys."""
    out: dict[str, Any] = {}
    for key, item in value.items():
        name = f"{prefix}{key}"
        if isinstance(item, Mapping) and item:
            out.update(flatten(item, name + "."))
        elif isinstance(item, list) and item:
            out.update(flatten({str(i): v for i, v in enumerate(item)}, name + "."))
        else:
            out[name] = item
    return out


def pinecone_metadata(document: Document) -> dict[str, Any]:
    """LangChain's upsert metadata: string arrays kept, the rest flattened, nulls and empty objects dropped."""
    metadata = dict(document.metadata)
    strings = {k: v for k, v in metadata.items() if isinstance(v, list) and all(isinstance(e, str) for e in v)}
    rest = {k: v for k, v in metadata.items() if k not in strings}
    merged = {**flatten(rest), **strings, TEXT_KEY: document.page_content}
    return {k: v for k, v in merged.items() if v is not None and not (isinstance(v, Mapping | list) and not v)}


class PineconeError(VectorStoreBackendError):
    """An error answer of Pinecone, worded as the Pinecone SDK words it (n8n shows that message)."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message, description="Check the Pinecone API key, the index's name and its dimension.")
        self.status = status


_CONFIG_HELP = "You can find the configuration values for your project in the Pinecone developer console at https://app.pinecone.io"
_STATUS_HELP = (
    "To see overall service health and learn whether this seems like a large-scale problem or one specific to your "
    "request, please go to https://status.pinecone.io/ to view our status page. If you believe the error reflects a "
    "problem with this client, please file a bug report in the github issue tracker at "
    "https://github.com/pinecone-io/pinecone-ts-client"
)


def _said(body: Any) -> str:
    if isinstance(body, Mapping):
        error = body.get("error")
        if isinstance(error, Mapping) and error.get("message"):
            return str(error["message"])
        if body.get("message"):
            return str(body["message"])
        return json.dumps(body, separators=(",", ":"))
    return "" if body is None else str(body)


def sdk_error(status: int, url: str, body: Any) -> str:
    """The Pinecone SDK's ``mapHttpStatusError`` message for an error status."""
    said = _said(body)
    if status == 400:
        return said
    if status == 401:
        return (
            f"The API key you provided was rejected while calling {url}. Please check your configuration values "
            f"and try again. {_CONFIG_HELP}"
        )
    if status == 404:
        return f"A call to {url} returned HTTP status 404."
    if status in (409, 501):
        return f"A call to {url} returned HTTP status {status}. {said}".rstrip()
    if status in (500, 503):
        intro = (
            f"An internal server error occurred while calling the {url} endpoint."
            if status == 500
            else f"The Pinecone service ({url}) is temporarily unavailable."
        )
        return " ".join(
            p for p in (intro, f"Status Code: {status}.", _STATUS_HELP, f"Body: {said}" if said else "") if p
        )
    return f"An unexpected error occured while calling the {url} endpoint.  {said} Status: {status}.".strip()


class PineconeStore:
    """One index (and namespace) of the credential's account, reached with the node run's API requests."""

    def __init__(self, ctx: NodeContext, index: str, namespace: str, item_index: int) -> None:
        if not index:
            raise VectorStoreBackendError(
                "No Pinecone index is set", description="Choose or type the index's name in 'Pinecone Index'."
            )
        self.ctx = ctx
        self.index = index
        self.namespace = namespace
        self.item_index = item_index
        self._host: str | None = None

    async def _request(self, method: str, url: str, body: Any = None) -> Any:
        """The SDK's call: the parsed body, or the SDK's error for the status (:func:`sdk_error`)."""
        options: dict[str, Any] = {
            "method": method,
            "url": url,
            "json": True,
            "headers": {"X-Pinecone-API-Version": API_VERSION},
            "returnFullResponse": True,
            "ignoreHttpStatusErrors": True,
        }
        if body is not None:
            options["body"] = body
        async with ApiRequests(self.ctx) as api:  # type: ignore[arg-type]  # any node context sends
            response = await api.request("pineconeApi", options, self.item_index)
        status = int(response.get("statusCode") or 0)
        if status >= 300:
            raise PineconeError(status, sdk_error(status, url, response.get("body")))
        return response.get("body")

    async def index_names(self) -> list[str]:
        answer = await self._request("GET", f"{CONTROL_PLANE}/indexes")
        return [str(i.get("name")) for i in (answer or {}).get("indexes") or [] if isinstance(i, Mapping)]

    async def host(self) -> str:
        if self._host is None:
            answer = await self._request("GET", f"{CONTROL_PLANE}/indexes/{quote(self.index, safe='')}")
            host = str((answer or {}).get("host") or "")
            self._host = host if host.startswith("http") else f"https://{host}"
        return self._host

    async def clear(self) -> None:
        """Options > Clear Namespace: delete every vector of the namespace (a missing namespace is fine)."""
        try:
            url = f"{await self.host()}/vectors/delete"
            await self._request("POST", url, {"deleteAll": True, "namespace": self.namespace})
        except PineconeError:
            pass  # n8n logs "Namespace … does not exist yet" and goes on

    async def add_vectors(self, vectors: Sequence[Vector], documents: Sequence[Document]) -> None:
        records = [
            {"id": document.id or str(uuid.uuid4()), "values": list(vector), "metadata": pinecone_metadata(document)}
            for vector, document in zip(vectors, documents, strict=True)
        ]
        url = f"{await self.host()}/vectors/upsert"
        for start in range(0, len(records), UPSERT_CHUNK):
            chunk = records[start : start + UPSERT_CHUNK]
            await self._request("POST", url, {"vectors": chunk, "namespace": self.namespace})

    async def search(self, query: Vector, k: int, filter: Any = None) -> list[ScoredDocument]:
        body: dict[str, Any] = {
            "topK": int(k),
            "vector": list(query),
            "includeMetadata": True,
            "includeValues": False,
            "namespace": self.namespace,
        }
        if isinstance(filter, Mapping) and filter:
            body["filter"] = dict(filter)
        answer = await self._request("POST", f"{await self.host()}/query", body)
        hits: list[ScoredDocument] = []
        for match in (answer or {}).get("matches") or []:
            metadata = dict(match.get("metadata") or {TEXT_KEY: ""})
            text = metadata.pop(TEXT_KEY, None)
            if match.get("score"):
                page = "" if text is None else str(text)
                document = Document(page_content=page, metadata=metadata, id=str(match.get("id")))
                hits.append(ScoredDocument(document=document, score=float(match["score"])))
        return hits


class _CheckedFirst:
    """Embeddings that run ``check`` once, before the first texts are embedded."""

    def __init__(self, embeddings: Embeddings, check: Callable[[], Awaitable[None]]) -> None:
        self.embeddings = embeddings
        self.check: Callable[[], Awaitable[None]] | None = check

    async def embed_documents(self, texts: list[str]) -> list[Vector]:
        if self.check is not None:
            check, self.check = self.check, None
            await check()
        return await self.embeddings.embed_documents(texts)

    async def embed_query(self, text: str) -> Vector:
        return await self.embeddings.embed_query(text)


class VectorStorePinecone(VectorStoreNode):
    """Pinecone over its REST API (the SDK's requests), through the kit's HTTP layer."""

    description: ClassVar[NodeDescription] = NodeDescription(
        name="@n8n/n8n-nodes-langchain.vectorStorePinecone",
        display_name="Pinecone Vector Store",
        versions=(1, 1.1, 1.2, 1.3),
        description="Work with your data in Pinecone Vector Store",
        inputs=vector_store_inputs,
        outputs=vector_store_outputs,
        credentials=("pineconeApi",),
    )
    supports_update: ClassVar[bool] = True

    def _pinecone(self, ctx: NodeContext, item_index: int) -> PineconeStore:
        index = ctx.get_node_parameter("pineconeIndex", item_index, "")
        if isinstance(index, Mapping):
            index = index.get("value", "")
        namespace = options_of(ctx, item_index).get("pineconeNamespace") or ""
        try:
            return PineconeStore(ctx, str(index or ""), str(namespace), item_index)
        except VectorStoreBackendError as error:
            raise error.for_node(ctx.node.name) from None

    async def store(self, ctx: NodeContext, item_index: int) -> NamedStore[Any]:
        return NamedStore(self._pinecone(ctx, item_index), ctx.node.name, metadata_filter(ctx, item_index))

    async def _insert(self, ctx: ExecuteContext, embeddings: Embeddings) -> list[Item]:
        """n8n checks that the index exists once the documents are loaded, before it embeds them."""
        return await super()._insert(ctx, _CheckedFirst(embeddings, lambda: self._check_indexes(ctx)))

    async def _check_indexes(self, ctx: ExecuteContext) -> None:
        items = len(ctx.get_input_data())
        names: list[str] | None = None
        for item_index in range(items if float(ctx.node.typeVersion) == 1 else min(items, 1)):
            store = self._pinecone(ctx, item_index)
            names = await store.index_names() if names is None else names
            if store.index not in names:
                raise NodeOperationError(
                    ctx.node.name,
                    f"Index {store.index} not found",
                    description="Please check that the index exists in your vector store",
                    item_index=item_index,
                )

    async def write(self, ctx: ExecuteContext, batches: list[EmbeddedBatch]) -> None:
        """Each batch upserted into its item's index and namespace, the namespace cleared before each batch when
        asked, as n8n does (so with typeVersion 1 only the last item's documents stay)."""
        for batch in batches:
            store = self._pinecone(ctx, batch.item_index)
            if store.namespace and options_of(ctx, batch.item_index).get("clearNamespace") is True:
                await store.clear()
            await NamedStore(store, ctx.node.name).add_vectors(batch.vectors, batch.documents)

    async def _update(self, ctx: ExecuteContext, embeddings: Embeddings) -> list[Item]:
        return await update_by_id(ctx, embeddings, self.store)

    def search_filter(self, ctx: NodeContext, item_index: int) -> Any:
        return metadata_filter(ctx, item_index)


__all__ = ["PineconeStore", "VectorStorePinecone", "flatten", "pinecone_metadata"]
