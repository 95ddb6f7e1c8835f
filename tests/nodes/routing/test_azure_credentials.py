"""The Azure shared-key signing ports (``microsoftAzureCosmosDbSharedKeyApi``, ``azureStorageSharedKeyApi``):
the signatures n8n 2.41.1's credential classes compute for the same requests at the same date (the vectors
below were produced by running those classes), the header order of Azure's culture-aware sort, and the
credential checks n8n 2.41 makes before it signs."""

from __future__ import annotations

import copy
from functools import cmp_to_key
from types import SimpleNamespace
from typing import Any

import pytest

from weft.errors import NodeOperationError
from weft.nodes.routing.functions import find_port
from weft.nodes.routing.ports import azure_credentials as signing
from weft.nodes.routing.ports.azure_common import compare_header

KEY = "dGVzdC1rZXktZm9yLXdlZnQtYXp1cmUtZmFrZXM="
DATE = "Fri, 04 Dec 2026 09:06:59 GMT"
COSMOS = {"account": "weftcosmos", "key": KEY, "database": "db1"}
STORAGE = {"account": "weftstore", "key": KEY}
COSMOS_BASE = "https://weftcosmos.documents.azure.com/dbs/db1"
STORAGE_BASE = "https://weftstore.blob.core.windows.net"
SCOPE: Any = SimpleNamespace(node_name="Azure")

COSMOS_VECTORS = [
    ({"method": "GET", "baseURL": COSMOS_BASE, "url": "/colls/c1/docs", "headers": {"x-ms-max-item-count": "2"}},
     "pYBf1AyeWGzs3661IS6dEhni2gz8Li0SIu6E8YZd3pg="),
    ({"method": "GET", "url": f"{COSMOS_BASE}/colls/c1"}, "Xz6qzVkEDziN4DkM8zUZQfYRXaUQE3YBoDmJc6OjDDI="),
    ({"method": "PUT", "baseURL": COSMOS_BASE, "url": "/colls/c1/docs/item1"},
     "vP5Jmun/Gge5vxB5m3EpzSZm2dE7i1Xfa5dosrosih0="),
    ({"method": "POST", "baseURL": COSMOS_BASE, "url": "/colls"}, "ROIlVyU773j8fzKhQcrG3verEhEqclGdAV/6hN7w0xA="),
]  # fmt: skip
STORAGE_VECTORS = [
    ({"method": "GET", "baseURL": STORAGE_BASE, "url": "/", "qs": {"comp": "list", "maxresults": 5},
      "headers": {"x-ms-date": "Thu, 03 Dec 2026 01:02:03 GMT", "x-ms-version": "2021-12-02"}},
     "g6fQD6DGiOR14/vfjH+FSv21GGCIhBgKF0jVffCiGY4="),
    ({"method": "PUT", "baseURL": STORAGE_BASE, "url": "/box/my file.txt",
      "headers": {"x-ms-version": "2021-12-02", "content-length": 11, "content-Type": "text/plain",
                  "x-ms-blob-type": "BlockBlob", "x-ms-meta-Zeta": " v", "x-ms-meta-alpha": "a",
                  "x-ms-blob-content-disposition": 'attachment; filename="a.txt"', "x-ms-tags": "a=b&c=d"}},
     "awcKnIULRXFQR+QOZ1DvyB6Y3nlUD0kchfEZyKMZpH4="),
    ({"baseURL": STORAGE_BASE, "url": "/box",
      "qs": {"restype": "container", "comp": "list", "marker": "m%2F1", "Include": "metadata,tags"}},
     "OjxNlwzU3flmx1B2Jcv242yJOId0m+1DwubbtuXVUQQ="),
]  # fmt: skip


@pytest.fixture(autouse=True)
def fixed_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(signing, "utc_now", lambda: DATE)


@pytest.mark.parametrize(("options", "signature"), COSMOS_VECTORS)
async def test_cosmos_db_signs_as_n8n(options: dict[str, Any], signature: str) -> None:
    signed = await signing.cosmos_db_shared_key(SCOPE, COSMOS, copy.deepcopy(options))
    headers = signed["headers"]
    assert headers["authorization"] == "type%3Dmaster%26ver%3D1.0%26sig%3D" + signature.replace("/", "%2F").replace(
        "+", "%2B"
    ).replace("=", "%3D")
    assert (headers["x-ms-date"], headers["x-ms-version"], headers["Cache-Control"]) == (DATE, "2018-12-31", "no-cache")


@pytest.mark.parametrize(("options", "signature"), STORAGE_VECTORS)
async def test_storage_signs_as_n8n(options: dict[str, Any], signature: str) -> None:
    signed = await signing.storage_shared_key(SCOPE, STORAGE, copy.deepcopy(options))
    assert signed["headers"]["authorization"] == f"SharedKey weftstore:{signature}"
    assert signed["headers"]["x-ms-version"] == "2021-12-02"


async def test_storage_keeps_the_request_date_and_drops_undefined_values() -> None:
    options = {"baseURL": STORAGE_BASE, "url": "/", "qs": {"comp": "list", "marker": None},
               "headers": {"x-ms-date": "Thu, 03 Dec 2026 01:02:03 GMT", "origin": None}}  # fmt: skip
    signed = await signing.storage_shared_key(SCOPE, STORAGE, options)
    assert signed["qs"] == {"comp": "list"} and "origin" not in signed["headers"]
    assert signed["headers"]["x-ms-date"] == "Thu, 03 Dec 2026 01:02:03 GMT" and signed["method"] == "GET"


def test_the_ports_are_registered_for_the_exported_shas() -> None:
    for sha in ("31fa7da1e033a506", "1c8d63f57e60c0a2"):
        found = find_port({"$function": "authenticate", "sha": sha})
        assert found is not None and found.kind == "authenticate"


def test_headers_sort_as_azure_does() -> None:
    names = ["x-ms-version", "x-ms-meta-zeta", "x-ms-date", "x-ms-meta-alpha", "x-ms-blob-type",
             "x-ms-blob-content-disposition", "x-ms-tags", "x-ms-meta-a_b", "x-ms-meta-a-c", "x-ms-meta-ab",
             "x-ms-copy-source"]  # fmt: skip
    assert sorted(names, key=cmp_to_key(compare_header)) == [  # n8n's compareHeader, run on the same names
        "x-ms-blob-content-disposition", "x-ms-blob-type", "x-ms-copy-source", "x-ms-date", "x-ms-meta-a_b",
        "x-ms-meta-ab", "x-ms-meta-a-c", "x-ms-meta-alpha", "x-ms-meta-zeta", "x-ms-tags", "x-ms-version",
    ]  # fmt: skip


def test_cosmos_resource_of_feeds_and_items() -> None:
    assert signing.cosmos_resource("N", f"{COSMOS_BASE}/colls") == ("colls", "dbs/db1")
    assert signing.cosmos_resource("N", f"{COSMOS_BASE}/colls/c1/docs") == ("docs", "dbs/db1/colls/c1")
    assert signing.cosmos_resource("N", f"{COSMOS_BASE}/colls/c1/docs/d1") == ("docs", "dbs/db1/colls/c1/docs/d1")
    with pytest.raises(NodeOperationError, match="Unable to determine the resource type"):
        signing.cosmos_resource("N", "https://weftcosmos.documents.azure.com/other")


@pytest.mark.parametrize(
    ("credential", "message"),
    [
        ({"account": "weft.evil.example/x"}, "The account name can contain only letters and numbers."),
        ({"account": "weft", "environment": "evil.example"}, "Select an Azure cloud from the list."),
        ({"account": "weft", "environment": "custom", "customEndpoint": "https://weft.example"},
         "Custom Azure Storage endpoints are disabled on this instance"),
    ],
)  # fmt: skip
async def test_storage_refuses_a_credential_that_would_send_the_key_elsewhere(
    credential: dict[str, Any], message: str
) -> None:
    options = {"baseURL": STORAGE_BASE, "url": "/", "headers": {}}
    with pytest.raises(NodeOperationError, match=message):
        await signing.storage_shared_key(SCOPE, {"key": KEY, **credential}, options)
    assert "authorization" not in options["headers"]


async def test_storage_custom_endpoint_when_enabled(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("N8N_AZURE_STORAGE_CUSTOM_ENDPOINTS_ENABLED", "true")
    custom = {"key": KEY, "account": "weft", "environment": "custom"}
    with pytest.raises(NodeOperationError, match="only a hostname"):
        await signing.storage_shared_key(SCOPE, {**custom, "customEndpoint": "https://weft.example/path"}, {"url": "/"})
    signed = await signing.storage_shared_key(SCOPE, {**custom, "customEndpoint": "https://weft.example/"},
                                              {"baseURL": "https://weft.example/", "url": "/"})  # fmt: skip
    assert signed["headers"]["authorization"].startswith("SharedKey weft:")
