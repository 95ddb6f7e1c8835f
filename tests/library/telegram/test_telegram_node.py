"""The Telegram node against the fake Bot API (``weft.testing.saas.telegram``, served as the HTTPS proxy): what
the recordings cannot show (the multipart upload's parts, the requests sent, typed errors naming the node and
the parameter, the credential test). Recorded cases s401-s421 hold the outputs to real n8n."""

from __future__ import annotations

import itertools
from typing import Any

from tests.library.fakes import service_fixture

from weft.engine import run_workflow
from weft.engine.services import LocalServices
from weft.services.credential_test import build_request
from weft.testing.saas import FakeSaasServer, telegram

CREDENTIAL = {"accessToken": telegram.TOKEN, "baseUrl": "https://api.telegram.org"}
IMAGE = "/9j/4AAQSkZJRgABAQ=="  # the start of a JPEG, base64


saas = service_fixture("telegram")


async def _run(params: dict[str, Any], *, items: str | None = None, **node: Any) -> tuple[list[Any], Any]:
    nodes: list[dict[str, Any]] = [
        {"name": "T", "type": "n8n-nodes-base.manualTrigger", "typeVersion": 1, "parameters": {}}
    ]
    if items is not None:
        nodes.append({"name": "Items", "type": "n8n-nodes-base.code", "typeVersion": 2,
                      "parameters": {"jsCode": items}})  # fmt: skip
    nodes.append({"name": "Telegram", "type": "n8n-nodes-base.telegram", "typeVersion": node.pop("version", 1.2),
                  "parameters": params, "credentials": {"telegramApi": {"id": "1", "name": "tg"}}, **node})  # fmt: skip
    connections = {a["name"]: {"main": [[{"node": b["name"], "type": "main", "index": 0}]]}
                   for a, b in itertools.pairwise(nodes)}  # fmt: skip
    workflow = {"name": "tg", "nodes": nodes, "connections": connections, "settings": {"executionOrder": "v1"}}
    run = await run_workflow(workflow, services=LocalServices(credentials={"telegramApi": CREDENTIAL}))
    task = run["data"]["resultData"]["runData"]["Telegram"][0]
    return [i["json"] for i in (task.get("data") or {"main": [[]]})["main"][0]], task.get("error")


async def test_send_message_sends_json_with_markdown_and_attribution(saas: FakeSaasServer) -> None:
    items, error = await _run({"chatId": "555000111", "text": "Hi *there*", "additionalFields": {}})
    assert error is None and items[0]["ok"] is True
    sent = saas.requests[-1]
    assert (sent.method, sent.path) == ("POST", f"/bot{telegram.TOKEN}/sendMessage")
    assert sent.body["parse_mode"] == "Markdown" and sent.body["disable_web_page_preview"] is True
    assert sent.body["text"].startswith(
        "Hi *there*\n\n_This message was sent automatically with _[n8n](https://n8n.io/"
    )


async def test_a_binary_file_is_uploaded_as_multipart(saas: FakeSaasServer) -> None:
    items = "return [{json:{}, binary:{data:{data:'" + IMAGE + "', mimeType:'image/jpeg', fileName:'a.jpg'}}}];"
    params = {"operation": "sendPhoto", "chatId": "555000111", "binaryData": True, "replyMarkup": "inlineKeyboard",
              "inlineKeyboard": {"rows": [{"row": {"buttons": [{"text": "OK",
                                                                "additionalFields": {"callback_data": "ok"}}]}}]},
              "additionalFields": {"caption": "look", "fileName": "renamed.jpg"}}  # fmt: skip
    out, error = await _run(params, items=items)
    assert error is None and out[0]["result"]["caption"] == "look"
    sent = saas.requests[-1]
    assert sent.headers["content-type"].startswith("multipart/form-data; boundary=")
    body = sent.raw_body
    assert b'name="photo"; filename="renamed.jpg"\r\nContent-Type: image/jpeg' in body
    assert b'name="reply_markup"\r\n\r\n{"inline_keyboard":[[{"text":"OK","callback_data":"ok"}]]}' in body
    assert b'name="disable_notification"\r\n\r\nfalse' in body
    assert out[0]["result"]["reply_markup"] == {"inline_keyboard": [[{"text": "OK", "callback_data": "ok"}]]}


async def test_a_binary_file_without_a_name_fails_naming_the_parameter(saas: FakeSaasServer) -> None:
    items = "return [{json:{}, binary:{data:{data:'" + IMAGE + "', mimeType:'image/jpeg'}}}];"
    params = {"operation": "sendDocument", "chatId": "555000111", "binaryData": True}
    _, error = await _run(params, items=items)
    assert error is not None and "File name is needed to sendDocument" in error["message"]
    assert "File Name" in error["message"] and not saas.requests


async def test_a_telegram_error_carries_its_description(saas: FakeSaasServer) -> None:
    _, error = await _run({"resource": "chat", "operation": "get", "chatId": "404"})
    assert error["message"] == "Bad request - please check your parameters"
    assert error["description"] == "Bad Request: chat not found"


async def test_file_download_reads_the_file_path(saas: FakeSaasServer) -> None:
    out, error = await _run({"resource": "file", "operation": "get", "fileId": "BQACAgQAAxkBAAIBDoc"})
    assert error is None and out[0]["result"]["file_path"] == "documents/file_3.pdf"
    assert [r.path for r in saas.requests] == [f"/bot{telegram.TOKEN}/getFile",
                                               f"/file/bot{telegram.TOKEN}/documents/file_3.pdf"]  # fmt: skip


async def test_send_and_wait_outside_a_stored_execution_says_where_it_runs(saas: FakeSaasServer) -> None:
    _, error = await _run({"operation": "sendAndWait", "chatId": "555000111", "message": "ok?"})
    assert "needs a resume URL" in error["message"] and "weft start" in error["description"]
    _, error = await _run({"operation": "sendAndWait", "chatId": "555000111", "message": "ok?", "chatApproval": True})
    assert error["message"] == "'Approve Within Chat' is not supported yet" and not saas.requests


def test_the_credential_test_calls_get_me_on_the_base_url() -> None:
    request = build_request("telegramApi", {"accessToken": telegram.TOKEN})  # baseUrl from its default
    assert (request.method, request.url) == ("GET", f"https://api.telegram.org/bot{telegram.TOKEN}/getMe")
    local = build_request("telegramApi", {"accessToken": "1:a", "baseUrl": "https://tg.weft.example"})
    assert local.url == "https://tg.weft.example/bot1:a/getMe"
