"""The Google Sheets node against the fake Sheets API and token endpoint (``weft.testing.saas.google_sheets`` and
``google_oauth``, served as the HTTPS proxy): the requests it sends, the service account's signed JWT, typed
errors naming the node and the parameter. Recorded cases s101-s149 hold the outputs to real n8n."""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qsl

import jwt
from tests.library.fakes import service_fixture

from weft.engine import run_workflow
from weft.engine.services import LocalServices
from weft.library.google.sheets.data import column_letters, column_number, prepare_sheet_data
from weft.nodes.google_service_account import SCOPES, format_pem_block
from weft.nodes.registry import default_registry
from weft.testing.saas import FakeSaasServer, google_oauth, google_sheets

OAUTH = {"clientId": "sheets-client-id.apps.googleusercontent.com", "clientSecret": "sheets-client-secret",
         "oauthTokenData": {"access_token": google_sheets.ACCESS_TOKEN, "token_type": "Bearer"}}  # fmt: skip
SERVICE_ACCOUNT = {"email": google_oauth.SERVICE_ACCOUNT_EMAIL, "privateKey": google_oauth.SERVICE_ACCOUNT_KEY}
DOC = {"__rl": True, "mode": "id", "value": google_sheets.PEOPLE}


def _sheet(value: Any, mode: str = "name") -> dict[str, Any]:
    return {"__rl": True, "mode": mode, "value": value}


saas = service_fixture("google_oauth", "google_sheets")


async def _run(params: dict[str, Any], *, version: float = 4.7, items: list[dict[str, Any]] | None = None,
               credentials: dict[str, Any] | None = None) -> tuple[list[Any], Any]:  # fmt: skip
    service = "googleApi" if params.get("authentication") == "serviceAccount" else "googleSheetsOAuth2Api"
    nodes: list[dict[str, Any]] = [
        {"name": "T", "type": "n8n-nodes-base.manualTrigger", "typeVersion": 1, "parameters": {}},
        {"name": "Input", "type": "n8n-nodes-base.code", "typeVersion": 2,
         "parameters": {"jsCode": f"return {items or [{}]}.map(json => ({{json}}));"}},
        {"name": "Sheets", "type": "n8n-nodes-base.googleSheets", "typeVersion": version, "parameters": params,
         "credentials": {service: {"id": "1", "name": "sheets"}}},
    ]  # fmt: skip
    workflow = {
        "name": "sheets",
        "nodes": nodes,
        "connections": {"T": {"main": [[{"node": "Input", "type": "main", "index": 0}]]},
                        "Input": {"main": [[{"node": "Sheets", "type": "main", "index": 0}]]}},
        "settings": {"executionOrder": "v1"},
    }  # fmt: skip
    given = credentials or {"sheets": SERVICE_ACCOUNT if service == "googleApi" else OAUTH}
    run = await run_workflow(workflow, services=LocalServices(credentials=given))
    task = run["data"]["resultData"]["runData"]["Sheets"][0]
    return [i["json"] for i in (task.get("data") or {"main": [[]]})["main"][0]], task.get("error")


def _sheets_requests(saas: FakeSaasServer) -> list[Any]:
    return [r for r in saas.requests if r.host == google_sheets.HOST]


async def test_a_read_asks_for_the_sheet_then_its_values_with_n8n_s_render_options(saas: FakeSaasServer) -> None:
    items, error = await _run({"documentId": DOC, "sheetName": _sheet("Headers only")})
    assert error is None and items == []
    meta, values = _sheets_requests(saas)
    assert meta.query == {"fields": "sheets.properties"}
    assert values.raw_path == f"/v4/spreadsheets/{google_sheets.PEOPLE}/values/'Headers%20only'"  # encodeURIComponent
    assert values.query == {"valueRenderOption": "UNFORMATTED_VALUE", "dateTimeRenderOption": "FORMATTED_STRING"}
    assert values.headers["authorization"] == f"Bearer {google_sheets.ACCESS_TOKEN}"


async def test_a_service_account_signs_a_jwt_for_the_sheets_scopes(saas: FakeSaasServer) -> None:
    items, error = await _run({"authentication": "serviceAccount", "documentId": DOC, "sheetName": _sheet("Sheet1")})
    assert error is None and [i["name"] for i in items] == ["Ada", "Alan", "Grace", "Edsger", "Barbara"]
    (token,) = [r for r in saas.requests if r.host == google_oauth.HOST]
    form = dict(parse_qsl(token.raw_body.decode()))
    assert form["grant_type"] == "urn:ietf:params:oauth:grant-type:jwt-bearer"
    public_key = google_oauth.SERVICE_ACCOUNTS[google_oauth.SERVICE_ACCOUNT_EMAIL]
    claims = jwt.decode(form["assertion"], public_key, algorithms=["RS256"], audience=google_oauth.TOKEN_URL)
    assert claims["iss"] == claims["sub"] == google_oauth.SERVICE_ACCOUNT_EMAIL
    assert claims["scope"] == " ".join(SCOPES["sheetV2"]) and claims["exp"] - claims["iat"] == 3600
    assert {r.headers["authorization"] for r in _sheets_requests(saas)} == {
        f"Bearer {google_oauth.SERVICE_ACCOUNT_TOKEN}"
    }


async def test_a_key_pasted_on_one_line_still_signs(saas: FakeSaasServer) -> None:
    one_line = google_oauth.SERVICE_ACCOUNT_KEY.replace("\n", "\\n")
    assert format_pem_block(one_line) == google_oauth.SERVICE_ACCOUNT_KEY + "\n"
    credentials = {"sheets": {**SERVICE_ACCOUNT, "privateKey": one_line}}
    _items, error = await _run({"authentication": "serviceAccount", "documentId": DOC, "sheetName": _sheet("Empty")},
                               credentials=credentials)  # fmt: skip
    assert error is None


async def test_a_broken_private_key_is_a_typed_error_saying_the_fix(saas: FakeSaasServer) -> None:
    credentials = {"sheets": {**SERVICE_ACCOUNT, "privateKey": "not a key"}}
    _items, error = await _run({"authentication": "serviceAccount", "documentId": DOC, "sheetName": _sheet("Empty")},
                               credentials=credentials)  # fmt: skip
    assert error["message"] == "Authorization failed - please check your credentials"
    assert "Google Service Account credential" in error["description"]
    assert not saas.requests


async def test_an_empty_document_names_the_parameter(saas: FakeSaasServer) -> None:
    _items, error = await _run({"documentId": {"__rl": True, "mode": "list", "value": ""}, "sheetName": _sheet("x")})
    assert error["message"] == "Can not get sheet 'From List' with a value of ''"
    assert "'Document' parameter" in error["description"]


async def test_an_unknown_sheet_names_it(saas: FakeSaasServer) -> None:
    _items, error = await _run({"documentId": DOC, "sheetName": _sheet(999, "id")})
    assert error["message"] == "Sheet with ID 999 not found" and "'Sheet' parameter" in error["description"]


async def test_append_adds_a_row_then_writes_the_items_in_the_header_s_order(saas: FakeSaasServer) -> None:
    params = {"operation": "append", "documentId": DOC, "sheetName": _sheet("Sheet1"),
              "columns": {"mappingMode": "autoMapInputData", "value": {}}, "options": {}}  # fmt: skip
    items, error = await _run(params, items=[{"email": "l@example.com", "name": "Linus", "id": 6}])
    assert error is None and items == [{"email": "l@example.com", "name": "Linus", "id": 6}]
    *_, grow, put = _sheets_requests(saas)
    assert grow.body == {"requests": [{"appendDimension": {"sheetId": "0", "dimension": "ROWS", "length": 1}}]}
    assert put.method == "PUT" and put.query == {"valueInputOption": "USER_ENTERED"}
    assert put.body == {"range": "Sheet1!7:7", "values": [[6, "Linus", "l@example.com", "", "", "", ""]]}


async def test_a_permission_denied_answer_is_worded_as_n8n_words_a_403(saas: FakeSaasServer) -> None:
    params = {"operation": "clear", "documentId": {**DOC, "value": google_sheets.READ_ONLY},
              "sheetName": _sheet("Sheet1")}  # fmt: skip
    _items, error = await _run(params)
    assert error["message"] == "Forbidden - perhaps check your credentials?"
    assert error["description"] == "The caller does not have permission"  # Google's message (recorded: s139)


async def test_update_by_row_number_writes_each_cell(saas: FakeSaasServer) -> None:
    columns = {"mappingMode": "defineBelow", "value": {"row_number": 3, "email": "a@b.example", "age": None},
               "matchingColumns": ["row_number"], "schema": []}  # fmt: skip
    params = {"operation": "update", "documentId": DOC, "sheetName": _sheet("Sheet1"), "columns": columns}
    items, error = await _run(params)
    assert error is None and items == [{"row_number": 3, "email": "a@b.example", "age": ""}]
    update = _sheets_requests(saas)[-1]
    assert update.body == {"data": [{"range": "Sheet1!C3", "values": [["a@b.example"]]},
                                    {"range": "Sheet1!D3", "values": [[""]]}],
                           "valueInputOption": "USER_ENTERED"}  # fmt: skip


def test_the_tool_variant_is_registered() -> None:
    tool = default_registry().get("n8n-nodes-base.googleSheetsTool")
    assert 4.7 in tool.description.versions


def test_columns_and_detected_ranges() -> None:
    assert [column_letters(n) for n in (1, 26, 27, 702, 703)] == ["A", "Z", "AA", "ZZ", "AAA"]
    assert [column_number(c) for c in ("A", "Z", "AA", "ZZ")] == [1, 26, 27, 702]
    rows = [["", "a", "", "b"], ["", 1, "", ""], [], ["", 2, "", 3]]
    data, header, first = prepare_sheet_data(rows, {"rangeDefinition": "detectAutomatically"})
    assert (header, first) == (0, 1)
    assert data == [["row_number", "a", "b"], [2, 1, ""], [4, 2, 3]]  # empty columns and rows left out
    until_empty = {"rangeDefinition": "detectAutomatically", "readRowsUntil": "firstEmptyRow"}
    assert prepare_sheet_data(rows, until_empty)[0] == [["row_number", "a", "b"], [2, 1, ""]]


async def test_the_credential_test_of_a_service_account_fetches_a_token(saas: FakeSaasServer) -> None:
    from weft.services.credential_test_run import test_credential

    assert await test_credential("googleApi", SERVICE_ACCOUNT) == {"status": "OK", "message": "Connection successful!"}
    broken = await test_credential("googleApi", {**SERVICE_ACCOUNT, "privateKey": "nope"})
    assert broken["status"] == "Error" and broken["message"].startswith("Private key validation failed: ")
    unknown = await test_credential("googleApi", {**SERVICE_ACCOUNT, "email": "who@example.com"})
    assert unknown == {"status": "Error", "message": "Private key validation failed: The OAuth client was not found."}
