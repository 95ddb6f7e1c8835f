"""Google Sheets (``n8n-nodes-base.googleSheets`` 3, 4, 4.1–4.7, n8n's V2 family; 1 and 2 in
:mod:`weft.library.google.sheets.v1`): rows read (filters, data
location, output formatting), appended, updated, appended or updated, sheets cleared, rows and columns deleted,
sheets and spreadsheets created and deleted, through Google's Sheets API v4 with an OAuth2 credential
(``googleSheetsOAuth2Api``, renewed when Google answers 401) or a service account (``googleApi``).

As n8n's router: the spreadsheet from the ``documentId`` resource locator (an id, or the id in a URL), the sheet by
name, id or URL (``gid``), the operation once over all items; a failure with "continue on fail" outputs the first
input item. ``…Tool`` variant: ``googleSheetsTool``.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable, Mapping
from typing import Any, ClassVar

from weft.errors import NodeApiError, NodeError, NodeOperationError
from weft.library.google._common import test_service_account
from weft.library.google.sheets import manage, read, upsert, write
from weft.library.google.sheets.sheet import GoogleSheet
from weft.library.google.sheets.v1 import execute_v1
from weft.nodes.api import ApiRequests
from weft.nodes.contract import ExecuteContext, NodeDescription, NodeType
from weft.workflow import Item, NodeOutput

_UI_NAMES = {"id": "By ID", "url": "By URL", "list": "From List", "name": "By Name"}
_SHEET_URL = re.compile(r"https:\/\/docs\.google\.com\/spreadsheets\/d\/[0-9a-zA-Z\-_]+.*\#gid=([0-9]+)")
_PERMISSION = (
    "Please check that the account you're using has the right permissions. (If you're trying to modify the "
    "sheet, you'll need edit access.)"
)

SheetOperation = Callable[[ExecuteContext, GoogleSheet, str, str], Awaitable[list[Item]]]
SHEET_OPERATIONS: dict[str, SheetOperation] = {
    "read": read.read,
    "append": write.append,
    "update": upsert.update,
    "appendOrUpdate": upsert.append_or_update,
    "clear": manage.clear,
    "delete": manage.delete_dimension,
    "create": manage.create_sheet,
    "remove": manage.remove_sheet,
}


class GoogleSheets(NodeType):
    description: ClassVar[NodeDescription] = NodeDescription(
        name="n8n-nodes-base.googleSheets",
        display_name="Google Sheets",
        versions=(1, 2, 3, 4, 4.1, 4.2, 4.3, 4.4, 4.5, 4.6, 4.7),
        description="Read, update and write data to Google Sheets",
        group=("input", "output"),
        usable_as_tool=True,
        credentials=("googleApi", "googleSheetsOAuth2Api"),
        defaults={"resource": "sheet"},
    )
    credential_tests: ClassVar[Mapping[str, Callable[[Mapping[str, Any]], Awaitable[dict[str, str]]]]] = {
        "googleApi": test_service_account  # n8n's googleApiCredentialTest
    }

    #: n8n marks only the V2 family (3 and later) ``usableAsTool``.
    tool_versions: ClassVar[tuple[float, ...]] = (3, 4, 4.1, 4.2, 4.3, 4.4, 4.5, 4.6, 4.7)

    async def execute(self, ctx: ExecuteContext) -> NodeOutput:
        async with ApiRequests(ctx) as api:
            if float(ctx.node.typeVersion) < 3:
                return await execute_v1(ctx, api)
            try:
                return [await _route(ctx, api)]
            except NodeError as error:
                if not ctx.continue_on_fail():
                    raise _with_permission_hint(error) from None
                items = ctx.get_input_data()
                # n8n's router outputs the first input item with the error beside it; the engine shows it as
                # {error: message} (recorded: s116)
                first: Item = {"json": dict(items[0]["json"]) if items else {}, "pairedItem": {"item": 0}}
                first["error"] = error.to_json()  # type: ignore[typeddict-unknown-key]
                return [[first]]


def _with_permission_hint(error: NodeError) -> NodeError:
    """n8n's transport: an error whose message says ``PERMISSION_DENIED`` says which access the sheet needs (a 403
    of the API is worded "Forbidden - perhaps check your credentials?", so its description stays Google's)."""
    if isinstance(error, NodeApiError) and "PERMISSION_DENIED" in error.message:
        details = f" Details of the error: {error.description}." if error.description else ""
        error.description = _PERMISSION + details
    return error


def spreadsheet_id(node: str, locator: Any) -> str:
    """n8n's ``getSpreadsheetId``: the id given, or the id in a URL (25+ word characters)."""
    mode, value = (locator.get("mode"), locator.get("value")) if isinstance(locator, Mapping) else ("id", locator)
    if not value:
        raise NodeOperationError(
            node,
            f"Can not get sheet '{_UI_NAMES.get(str(mode), mode)}' with a value of '{'' if value is None else value}'",
            description="Set the 'Document' parameter: pick a spreadsheet, or give its ID or URL.",
        )
    if mode == "url":
        match = re.search(r"([-\w]{25,})", str(value))
        return match.group(1) if match else ""
    return str(value)


def _sheet_value(locator: Any) -> tuple[str, Any]:
    """The sheet locator's mode and value (``extractValue``: the ``gid`` of a URL)."""
    if not isinstance(locator, Mapping):
        return "id", locator
    mode, value = str(locator.get("mode") or "list"), locator.get("value")
    if mode == "url":
        match = _SHEET_URL.search(str(value or ""))
        value = match.group(1) if match else value
    return mode, value


async def _route(ctx: ExecuteContext, api: ApiRequests) -> list[Item]:
    resource = ctx.get_node_parameter("resource", 0, "sheet")
    operation = str(ctx.get_node_parameter("operation", 0, "read" if resource == "sheet" else "create"))
    if resource == "spreadsheet":
        if operation == "create":
            return await manage.create_spreadsheet(ctx, api)
        if operation == "deleteSpreadsheet":
            return await manage.delete_spreadsheet(ctx, api)
        raise NodeOperationError(ctx.node.name, f'The operation "{operation}" is not supported!')
    if operation not in SHEET_OPERATIONS:
        raise NodeOperationError(ctx.node.name, f'The operation "{operation}" is not supported!')
    document = spreadsheet_id(ctx.node.name, ctx.get_node_parameter("documentId", 0, {"mode": "list", "value": ""}))
    sheet = GoogleSheet(document, api, _oauth2_type(ctx))
    sheet_id, sheet_name = "", ""
    if operation != "create":
        mode, value = _sheet_value(ctx.get_node_parameter("sheetName", 0, {"mode": "list", "value": ""}))
        found = await sheet.get_sheet(mode, value)
        sheet_id, sheet_name = str(found["sheetId"]), str(found["title"])
    if operation == "create":
        sheet_name = document
    elif operation == "delete":
        sheet_name = sheet_id
    elif operation == "remove":
        sheet_name = f"{document}||{sheet_id}"
    return await SHEET_OPERATIONS[operation](ctx, sheet, sheet_name, sheet_id)


def _oauth2_type(ctx: ExecuteContext) -> str:
    method = ctx.get_node_parameter("authentication", 0, "oAuth2")
    return "googleSheetsTriggerOAuth2Api" if method == "triggerOAuth2" else "googleSheetsOAuth2Api"


__all__ = ["SHEET_OPERATIONS", "GoogleSheets", "spreadsheet_id"]
