"""The Webhook node's ``ipWhitelist`` cannot be passed with a forged ``X-Forwarded-For`` (issue 19).

The attack: a process on the same machine (or anything the server sees as 127.0.0.1) calls a webhook whose
allow-list names another address, and says it forwards for that address. The server took the header's word.
Now, as n8n with its default ``N8N_PROXY_HOPS=0``, the caller is the connection's address; ``X-Forwarded-For`` is
read only with ``WEFT_PROXY_HOPS`` > 0, and then as express's ``trust proxy`` reads it: the address that many hops
from the right. The login rate limit counts by the same address.
"""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest

from weft.errors import ConfigurationError
from weft.server.http import forwarded_addresses
from weft.settings import Settings

from ._extra_server import extra_server
from .conftest import Server, unique, webhook_workflow

ALLOWED = "203.0.113.7"
#: n8n's answer to a caller the allow-list does not name (Webhook node: 403, plain text).
REFUSED = (403, "IP is not allowed to access the webhook!")


def _guarded(server: Server, allowlist: str = f"{ALLOWED}, 198.51.100.0/24") -> str:
    path = unique("ip")
    server.import_workflow(webhook_workflow(path, options={"ipWhitelist": allowlist}))
    return path


def _call(server: Server, path: str, forwarded_for: str | None) -> tuple[int, str]:
    headers = {"x-forwarded-for": forwarded_for} if forwarded_for is not None else {}
    with server.client() as client:
        answer = client.get(f"/webhook/{path}", headers=headers)
    return answer.status_code, answer.text


@pytest.fixture(scope="module")
def direct(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """Run as ``weft start`` runs it, with the default ``WEFT_PROXY_HOPS`` (0)."""
    with extra_server(tmp_path_factory.mktemp("weft-direct"), {}) as server:
        yield server


def test_a_forged_forwarded_for_does_not_pass_the_allow_list(direct: Server) -> None:
    path = _guarded(direct)
    assert _call(direct, path, ALLOWED) == REFUSED
    assert _call(direct, path, f"{ALLOWED}, {ALLOWED}") == REFUSED
    assert _call(direct, path, "198.51.100.20") == REFUSED
    assert _call(direct, path, None) == REFUSED


def test_the_connection_address_is_what_the_allow_list_checks(direct: Server) -> None:
    path = _guarded(direct, f"{ALLOWED}, 127.0.0.1")
    assert _call(direct, path, "192.0.2.1")[0] == 200  # the header is not read at all


@pytest.fixture(scope="module")
def behind_a_proxy(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with extra_server(tmp_path_factory.mktemp("weft-proxied"), {"WEFT_PROXY_HOPS": "1"}) as server:
        yield server


def test_with_one_proxy_hop_the_address_the_proxy_adds_counts(behind_a_proxy: Server) -> None:
    path = _guarded(behind_a_proxy)
    assert _call(behind_a_proxy, path, ALLOWED)[0] == 200
    # a proxy appends the real caller: what the caller wrote itself (on the left) is not trusted
    assert _call(behind_a_proxy, path, f"{ALLOWED}, 192.0.2.1") == REFUSED
    assert _call(behind_a_proxy, path, f"192.0.2.1, {ALLOWED}")[0] == 200
    assert _call(behind_a_proxy, path, None) == REFUSED  # no header: the proxy's own address, 127.0.0.1


def test_express_trust_proxy_hops() -> None:
    """``trust proxy`` = n: the caller is n hops from the right of [X-Forwarded-For…, peer]; the ones passed are the
    proxies (``req.ips``), which n8n's allow-list accepts too."""
    header = ["10.0.0.1, 10.0.0.2", "10.0.0.3"]  # two header lines, as a client may send them
    assert forwarded_addresses("127.0.0.1", header, 0) == ("127.0.0.1", ())
    assert forwarded_addresses("127.0.0.1", header, 1) == ("10.0.0.3", ("10.0.0.3",))
    assert forwarded_addresses("127.0.0.1", header, 2) == ("10.0.0.2", ("10.0.0.2", "10.0.0.3"))
    assert forwarded_addresses("127.0.0.1", header, 9) == ("10.0.0.1", ("10.0.0.1", "10.0.0.2", "10.0.0.3"))
    assert forwarded_addresses("127.0.0.1", [], 1) == ("127.0.0.1", ())
    assert forwarded_addresses("127.0.0.1", [" , 10.0.0.9 ,"], 1) == ("10.0.0.9", ("10.0.0.9",))


def test_a_forged_forwarded_for_does_not_dodge_the_login_limit(direct: Server) -> None:
    """1,000 logins in 5 minutes per address: rotating the header does not make new addresses."""
    server = direct
    with httpx.Client(base_url=server.url, timeout=10) as client:
        for n in range(3):
            body = {"emailOrLdapLoginId": f"nobody{n}@example.com", "password": "wrong"}
            client.post("/rest/login", json=body, headers={"x-forwarded-for": f"192.0.2.{n}"})
    counted = set(server.instance.auth.per_address._hits)
    assert "127.0.0.1" in counted
    assert not any(key.startswith("192.0.2.") for key in counted)


def test_a_negative_hop_count_is_refused_naming_the_variable() -> None:
    with pytest.raises(ConfigurationError, match="WEFT_PROXY_HOPS=-1 is negative"):
        Settings.from_env({"WEFT_PROXY_HOPS": "-1"})
    assert Settings.from_env({}).proxy_hops == 0
