"""Records what n8n answers for login, sessions, API keys and Webhook authentication (run by hand).

Start n8n 2.8.4 with the workflows and credentials below imported and published, then::

    .venv/bin/python tests/security/_record_n8n.py http://127.0.0.1:5851 /path/to/rsa.pem
    .venv/bin/python tests/security/_record_n8n.py http://127.0.0.1:5851 --limits   # only the "limits" part
    .venv/bin/python tests/security/_record_n8n.py http://127.0.0.1:5851 --ip-and-wait   # only those cases

Workflows: one Webhook (GET, v2) per authentication, on the paths ``basic``, ``header``, ``jwths``, ``jwtrs``
(credentials ``httpBasicAuth`` alice/s3cret, ``httpHeaderAuth`` X-Api-Token/tok-123, ``jwtAuth`` HS256
passphrase ``hs-secret``, ``jwtAuth`` RS256 with the PEM pair) and ``basicnocred`` (basic auth, no credential);
``ipno`` and ``waitauth`` as :func:`record_ip_and_wait` says.

It writes ``tests/security/n8n_answers.json``: for each case the status, the JSON (or text) body and the
headers that matter. Values that change per run (ids, dates, keys) are replaced by ``"<any>"``.
"""

from __future__ import annotations

import base64
import json
import sys
import time
import warnings
from pathlib import Path
from typing import Any

import httpx
import jwt

warnings.filterwarnings("ignore")

OWNER = {"email": "owner@example.com", "firstName": "Ada", "lastName": "Owner", "password": "Passw0rd-long"}
VOLATILE = {
    "id",
    "createdAt",
    "updatedAt",
    "apiKey",
    "rawApiKey",
    "expiresAt",
    "versionId",
    "personalizationAnswers",
    "lastActiveAt",
    "signInType",
    "featureFlags",
    "globalScopes",
    "settings",
    "mfaAuthenticated",
    "activeVersionId",
    "triggerCount",
    "shared",
    "meta",
    "pinData",
    "staticData",
    "parentFolderId",
    "isArchived",
    "versionCounter",
    "description",
    "activeVersion",
    "nodes",
    "connections",
    "tags",
    "role",
    "isPending",
    "isOwner",
    "mfaEnabled",
    "firstName",
    "lastName",
    "email",
    "lastId",
}


def answer(response: httpx.Response, *, keep: tuple[str, ...] = ()) -> dict[str, Any]:
    try:
        body: Any = response.json()
    except ValueError:
        body = response.text
    entry: dict[str, Any] = {"status": response.status_code, "body": _mask(body)}
    headers = {name: response.headers[name] for name in keep if name in response.headers}
    if headers:
        entry["headers"] = headers
    return entry


def _mask(value: Any) -> Any:
    if isinstance(value, dict):
        if "stacktrace" in value:  # n8n adds it outside production; it names paths of the recording machine
            value = {**value, "stacktrace": "<n8n's stack trace (outside production)>"}
        return {k: ("<any>" if k in VOLATILE and v is not None else _mask(v)) for k, v in value.items()}
    if isinstance(value, list):
        return [_mask(v) for v in value]
    return value


def cookie_attributes(response: httpx.Response) -> list[str]:
    raw = response.headers.get("set-cookie", "")
    return sorted(part.strip().split("=")[0].lower() for part in raw.split(";")[1:])


def record_auth(base: str) -> dict[str, Any]:
    out: dict[str, Any] = {}
    c = httpx.Client(base_url=base, timeout=30)
    out["rest_no_cookie"] = answer(c.get("/rest/workflows"))
    out["public_no_key"] = answer(c.get("/api/v1/workflows"))
    out["public_bad_key"] = answer(c.get("/api/v1/workflows", headers={"X-N8N-API-KEY": "nope"}))
    out["owner_setup"] = answer(c.post("/rest/owner/setup", json=OWNER))
    out["owner_setup_again"] = answer(httpx.post(base + "/rest/owner/setup", json=OWNER))
    fresh = httpx.Client(base_url=base, timeout=30)
    out["login_wrong_password"] = answer(
        fresh.post("/rest/login", json={"emailOrLdapLoginId": OWNER["email"], "password": "wrong"})
    )
    out["login_bad_email"] = answer(fresh.post("/rest/login", json={"emailOrLdapLoginId": "x", "password": "wrong"}))
    login = fresh.post("/rest/login", json={"emailOrLdapLoginId": OWNER["email"], "password": OWNER["password"]})
    out["login"] = answer(login)
    out["login_cookie"] = {
        "name": login.headers.get("set-cookie", "").split("=")[0],
        "attributes": cookie_attributes(login),
    }
    cookie = fresh.cookies.get("n8n-auth")
    out["rest_with_cookie"] = {"status": fresh.get("/rest/workflows").status_code}
    out["rest_bad_cookie"] = answer(httpx.get(base + "/rest/workflows", cookies={"n8n-auth": "garbage"}))
    claims = jwt.decode(cookie, options={"verify_signature": False})
    forged = jwt.encode({**claims, "exp": int(time.time()) - 60}, "not-the-secret", algorithm="HS256")
    out["rest_forged_cookie"] = answer(httpx.get(base + "/rest/workflows", cookies={"n8n-auth": forged}))
    out["current_user"] = answer(fresh.get("/rest/login"))
    created = fresh.post(
        "/rest/api-keys", json={"label": "test", "expiresAt": None, "scopes": ["workflow:read", "workflow:list"]}
    )
    out["api_key_create"] = answer(created)
    key = created.json()["data"]
    out["api_key_redacted_shape"] = [len(key["apiKey"]), key["apiKey"].count("*")]
    out["api_key_list"] = answer(fresh.get("/rest/api-keys"))
    pub = httpx.Client(base_url=base, timeout=30, headers={"X-N8N-API-KEY": key["rawApiKey"]})
    out["public_list_workflows"] = answer(pub.get("/api/v1/workflows"))
    out["public_missing_scope"] = answer(pub.get("/api/v1/executions"))
    out["public_not_found"] = answer(pub.get("/api/v1/workflows/doesnotexist"))
    out["api_key_delete"] = answer(fresh.delete(f"/rest/api-keys/{key['id']}"))
    out["public_revoked_key"] = answer(pub.get("/api/v1/workflows"))
    scopes = fresh.get("/rest/api-keys/scopes").json()["data"]
    out["api_key_scopes"] = answer(fresh.get("/rest/api-keys/scopes"))
    no_scopes = {"label": "x", "expiresAt": None, "scopes": []}
    out["api_key_no_scopes"] = answer(fresh.post("/rest/api-keys", json=no_scopes))
    full = fresh.post("/rest/api-keys", json={"label": "full", "expiresAt": None, "scopes": scopes}).json()["data"]
    out["public_full"] = record_public(
        httpx.Client(base_url=base, timeout=30, headers={"X-N8N-API-KEY": full["rawApiKey"]})
    )
    out["logout"] = answer(fresh.post("/rest/logout"))
    out["rest_after_logout_old_cookie"] = answer(httpx.get(base + "/rest/workflows", cookies={"n8n-auth": cookie}))
    limited = httpx.Client(base_url=base, timeout=30)
    statuses = [
        limited.post("/rest/login", json={"emailOrLdapLoginId": "limit@example.com", "password": "x"}) for _ in range(7)
    ]
    out["login_rate_limit"] = {"statuses": [r.status_code for r in statuses], "last": answer(statuses[-1])}
    return out


def record_public(pub: httpx.Client) -> dict[str, Any]:
    out: dict[str, Any] = {}
    workflow = {
        "name": "public",
        "nodes": [
            {
                "parameters": {},
                "name": "Start",
                "type": "n8n-nodes-base.manualTrigger",
                "typeVersion": 1,
                "position": [0, 0],
            }
        ],
        "connections": {},
        "settings": {"executionOrder": "v1"},
    }
    created = pub.post("/api/v1/workflows", json=workflow)
    out["create_workflow"] = answer(created)
    wid = created.json().get("id")
    out["create_workflow_no_settings"] = answer(
        pub.post("/api/v1/workflows", json={"name": "x", "nodes": [], "connections": {}})
    )
    out["update_workflow"] = answer(pub.put(f"/api/v1/workflows/{wid}", json={**workflow, "name": "renamed"}))
    out["update_workflow_missing"] = answer(pub.put("/api/v1/workflows/nope", json=workflow))
    out["activate_no_trigger"] = answer(pub.post(f"/api/v1/workflows/{wid}/activate"))
    out["deactivate"] = answer(pub.post(f"/api/v1/workflows/{wid}/deactivate"))
    out["get_workflow"] = answer(pub.get(f"/api/v1/workflows/{wid}"))
    out["list_executions"] = answer(pub.get("/api/v1/executions"))
    out["get_execution_missing"] = answer(pub.get("/api/v1/executions/999999"))
    out["create_tag"] = answer(pub.post("/api/v1/tags", json={"name": "sec-tag"}))
    out["create_tag_again"] = answer(pub.post("/api/v1/tags", json={"name": "sec-tag"}))
    out["list_tags"] = answer(pub.get("/api/v1/tags"))
    cred = pub.post(
        "/api/v1/credentials", json={"name": "pc", "type": "httpHeaderAuth", "data": {"name": "X-A", "value": "b"}}
    )
    out["create_credential"] = answer(cred)
    out["delete_credential"] = answer(pub.delete(f"/api/v1/credentials/{cred.json().get('id')}"))
    out["delete_workflow"] = answer(pub.delete(f"/api/v1/workflows/{wid}"))
    out["delete_workflow_missing"] = answer(pub.delete(f"/api/v1/workflows/{wid}"))
    return out


def record_webhooks(base: str, private_key: str) -> dict[str, Any]:
    out: dict[str, Any] = {}
    keep = ("www-authenticate",)
    get = lambda path, **kw: answer(httpx.get(f"{base}/webhook/{path}", timeout=30, **kw), keep=keep)  # noqa: E731
    basic = "Basic " + base64.b64encode(b"alice:s3cret").decode()
    wrong = "Basic " + base64.b64encode(b"alice:wrong").decode()
    out["basic_none"] = get("basic")
    out["basic_wrong"] = get("basic", headers={"authorization": wrong})
    out["basic_ok"] = {"status": get("basic", headers={"authorization": basic})["status"]}
    out["basic_bad_x_auth_token"] = get("basic", headers={"x-auth-token": "abc"})
    out["basic_no_credential"] = get("basicnocred")
    out["header_none"] = get("header")
    out["header_wrong"] = get("header", headers={"x-api-token": "nope"})
    out["header_ok"] = {"status": get("header", headers={"x-api-token": "tok-123"})["status"]}
    now = int(time.time())
    hs = jwt.encode({"sub": "u1", "iat": now}, "hs-secret", algorithm="HS256")
    out["jwt_hs_none"] = get("jwths")
    out["jwt_hs_no_token"] = get("jwths", headers={"authorization": "Bearer"})
    out["jwt_hs_bad_signature"] = get(
        "jwths", headers={"authorization": "Bearer " + jwt.encode({"sub": "u1"}, "other", algorithm="HS256")}
    )
    out["jwt_hs_expired"] = get(
        "jwths",
        headers={
            "authorization": "Bearer " + jwt.encode({"sub": "u1", "exp": now - 100}, "hs-secret", algorithm="HS256")
        },
    )
    out["jwt_hs_not_before"] = get(
        "jwths",
        headers={
            "authorization": "Bearer " + jwt.encode({"sub": "u1", "nbf": now + 1000}, "hs-secret", algorithm="HS256")
        },
    )
    out["jwt_hs_wrong_algorithm"] = get(
        "jwths", headers={"authorization": "Bearer " + jwt.encode({"sub": "u1"}, "hs-secret", algorithm="HS512")}
    )
    out["jwt_hs_malformed"] = get("jwths", headers={"authorization": "Bearer abc.def"})
    out["jwt_hs_ok"] = get("jwths", headers={"authorization": "Bearer " + hs})
    rs = jwt.encode({"sub": "u2", "iat": now}, private_key, algorithm="RS256")
    out["jwt_rs_ok"] = get("jwtrs", headers={"authorization": "Bearer " + rs})
    out["jwt_rs_hs_token"] = get("jwtrs", headers={"authorization": "Bearer " + hs})
    out["jwt_rs_bad_signature"] = get("jwtrs", headers={"authorization": "Bearer " + rs[:-6] + "AAAAAA"})
    return out


def record_ip_and_wait(base: str) -> dict[str, Any]:
    """``ipno`` (``ipWhitelist`` without 127.0.0.1) and ``waitauth`` (``examples/wait_approval.json`` whose Wait node
    has ``incomingAuthentication: headerAuth`` with the header credential)."""
    keep = ("www-authenticate",)
    out = {"ip_not_allowed": answer(httpx.get(f"{base}/webhook/ipno"), keep=keep)}
    info = httpx.post(f"{base}/webhook/waitauth", json={"request": "x"}).json()
    time.sleep(1)
    out["wait_resume_none"] = answer(httpx.post(info["resumeUrl"], json={"approved": True}), keep=keep)
    out["wait_resume_wrong"] = answer(
        httpx.post(info["resumeUrl"], json={"approved": True}, headers={"x-api-token": "nope"}), keep=keep
    )
    out["wait_resume_ok"] = answer(
        httpx.post(info["resumeUrl"], json={"approved": True}, headers={"x-api-token": "tok-123"})
    )
    return out


def record_limits(base: str) -> dict[str, Any]:
    """What n8n does with a body over 16 MiB, a foreign ``Host`` and a cross-origin POST (no session needed)."""
    big = b'{"a":"' + b"x" * (17 * 1024 * 1024) + b'"}'
    too_large = httpx.post(base + "/rest/login", content=big, headers={"content-type": "application/json"}, timeout=60)
    login = {"emailOrLdapLoginId": "a@b.co", "password": "x"}
    return {
        "body_over_16_mib": {"status": too_large.status_code},
        "foreign_host": {"status": httpx.get(base + "/rest/workflows", headers={"host": "evil.example"}).status_code},
        "cross_origin_login": {
            "status": httpx.post(
                base + "/rest/login", json=login, headers={"origin": "http://evil.example"}
            ).status_code
        },
    }


def main() -> None:
    base = sys.argv[1]
    target = Path(__file__).with_name("n8n_answers.json")
    if sys.argv[2:] == ["--limits"]:  # can be recorded again on an instance whose owner is set up
        answers = json.loads(target.read_text())
        answers["limits"] = record_limits(base)
    elif sys.argv[2:] == ["--ip-and-wait"]:
        answers = json.loads(target.read_text())
        answers["webhook"].update(record_ip_and_wait(base))
    else:
        pem = Path(sys.argv[2]).read_text()
        answers = {
            "n8n": "2.8.4",
            "webhook": {**record_webhooks(base, pem), **record_ip_and_wait(base)},
            "auth": record_auth(base),
            "limits": record_limits(base),
        }
    target.write_text(json.dumps(answers, indent=2, sort_keys=True) + "\n")


if __name__ == "__main__":
    main()
