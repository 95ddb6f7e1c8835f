"""A fake Google Docs API v1 (``https://docs.googleapis.com/v1/documents/...``): two documents to get and
``batchUpdate`` (each request type checked and answered as Google does: ``replaceAllText`` counts its matches,
``createHeader``/``createFooter``/``createNamedRange`` answer new ids, an index past the segment's end is a 400),
``writeControl.requiredRevisionId`` checked, Google's error bodies (``{"error": {"code", "message", "status"}}``),
404 for unknown documents and 429 with ``Retry-After`` for the document ``rate-limited``. Bearer token
``docs-test-token`` (OAuth2) or the service account's token of :mod:`.google_oauth`. It keeps no state: an update
answers its replies without changing the documents, so cases run in any order. (Creating a document is the Drive
API's ``POST /drive/v3/files``, served by :mod:`.google_drive`.)"""

from __future__ import annotations

from typing import Any

from weft.testing.fake_api import ApiReply, ApiRequest, FakeApiServer, require
from weft.testing.saas.google_oauth import SERVICE_ACCOUNT_TOKEN, authorized, google_error

HOST = "docs.googleapis.com"
TOKENS = ("docs-test-token", SERVICE_ACCOUNT_TOKEN)
REPORT = "1DocWeftQuarterlyReport00000000000000000001"
NOTES = "1DocWeftMeetingNotes0000000000000000000002"
_KNOWN = ("insertText", "replaceAllText", "createParagraphBullets", "deleteParagraphBullets", "createNamedRange",
          "deleteNamedRange", "insertTable", "insertTableRow", "insertTableColumn", "deleteTableRow",
          "deleteTableColumn", "insertPageBreak", "deletePositionedObject", "createHeader", "createFooter",
          "deleteHeader", "deleteFooter")  # fmt: skip


def _paragraph(start: int, text: str, style: str = "NORMAL_TEXT") -> dict[str, Any]:
    end = start + len(text)
    run = {"startIndex": start, "endIndex": end, "textRun": {"content": text, "textStyle": {}}}
    style_of = {"namedStyleType": style, "direction": "LEFT_TO_RIGHT"}
    return {"startIndex": start, "endIndex": end, "paragraph": {"elements": [run], "paragraphStyle": style_of}}


def _document(doc_id: str, title: str, lines: list[tuple[str, str]], revision: str) -> dict[str, Any]:
    content: list[dict[str, Any]] = [{"endIndex": 1, "sectionBreak": {"sectionStyle": {"columnSeparatorStyle": "NONE",
                                      "contentDirection": "LEFT_TO_RIGHT", "sectionType": "CONTINUOUS"}}}]  # fmt: skip
    index = 1
    for text, style in lines:
        if text == "<table>":
            content.append({"startIndex": index, "endIndex": index + 10,
                            "table": {"rows": 1, "columns": 2, "tableRows": []}})  # fmt: skip
            index += 10
            continue
        content.append(_paragraph(index, text, style))
        index += len(text)
    return {"title": title, "body": {"content": content}, "documentStyle": {"pageSize": {
            "height": {"magnitude": 792, "unit": "PT"}, "width": {"magnitude": 612, "unit": "PT"}}},
            "revisionId": revision, "suggestionsViewMode": "SUGGESTIONS_INLINE", "documentId": doc_id}  # fmt: skip


DOCUMENTS = {
    REPORT: _document(REPORT, "Quarterly report", [
        ("Quarterly report\n", "TITLE"), ("Sales grew in Q1.\n", "NORMAL_TEXT"), ("<table>", ""),
        ("Next: hire two engineers. Sales again.\n", "NORMAL_TEXT")], "rev-report-7"),
    NOTES: _document(NOTES, "Meeting notes", [("Notes\n", "HEADING_1"), ("\n", "NORMAL_TEXT")], "rev-notes-2"),
}  # fmt: skip


def _end(document: dict[str, Any]) -> int:
    return int(document["body"]["content"][-1]["endIndex"])


def _text(document: dict[str, Any]) -> str:
    return "".join(e["paragraph"]["elements"][0]["textRun"]["content"] for e in document["body"]["content"]
                   if "paragraph" in e)  # fmt: skip


def _found(request: ApiRequest) -> dict[str, Any]:
    authorized(request, TOKENS)
    doc_id = request.params["id"]
    require(doc_id != "rate-limited", google_error(429, "Quota exceeded for quota metric 'Read requests' and limit "
            "'Read requests per minute per user' of service 'docs.googleapis.com'.", "RESOURCE_EXHAUSTED",
            **{"Retry-After": "30"}))  # fmt: skip
    require(doc_id in DOCUMENTS, google_error(404, "Requested entity was not found.", "NOT_FOUND"))
    return DOCUMENTS[doc_id]


def _get(request: ApiRequest) -> ApiReply:
    return ApiReply(body=_found(request))


def _invalid(message: str) -> ApiReply:
    return google_error(400, message, "INVALID_ARGUMENT")


def _reply(document: dict[str, Any], position: int, name: str, spec: Any) -> dict[str, Any]:
    spec = spec if isinstance(spec, dict) else {}
    where = f"requests[{position}].{name}"
    if name == "replaceAllText":
        needle = str((spec.get("containsText") or {}).get("text") or "")
        require(bool(needle), _invalid(f"Invalid {where}: The text to replace must not be empty."))
        text = _text(document)
        found = text.count(needle) if spec["containsText"].get("matchCase") else text.lower().count(needle.lower())
        return {"replaceAllText": {"occurrencesChanged": found} if found else {}}
    location = spec.get("location")
    if isinstance(location, dict):
        index = location.get("index")
        end = _end(document)
        message = f"Invalid {where}: Index {index} must be less than the end index of the referenced segment, {end}."
        require(isinstance(index, int) and 1 <= index < end, _invalid(message))
    if name == "insertText":
        require(isinstance(spec.get("text"), str), _invalid(f"Invalid {where}: text must be set."))
    if name in ("createHeader", "createFooter"):
        kind = name.removeprefix("create").lower()
        return {name: {f"{kind}Id": f"kix.{kind}{position + 1}"}}
    if name == "createNamedRange":
        return {name: {"namedRangeId": f"kix.range{position + 1}"}}
    if name in ("deleteHeader", "deleteFooter"):
        kind = name.removeprefix("delete").lower()
        require(spec.get(f"{kind}Id") == f"kix.{kind}1", _invalid(f"Invalid {where}: The {kind} ID was not found."))
    return {}


def _batch_update(request: ApiRequest) -> ApiReply:
    document = _found(request)
    body = request.body if isinstance(request.body, dict) else {}
    wanted = (body.get("writeControl") or {}).get("requiredRevisionId")
    require(wanted in (None, document["revisionId"]), google_error(400, f"The required revision ID '{wanted}' does "
            "not match the latest revision.", "FAILED_PRECONDITION"))  # fmt: skip
    entries = body.get("requests") or []
    require(bool(entries), _invalid("Must specify at least one request."))
    replies = []
    for position, entry in enumerate(entries):
        names = list(entry) if isinstance(entry, dict) else []
        require(len(names) == 1 and names[0] in _KNOWN, _invalid(f"Invalid requests[{position}]: "
                "Exactly one request type must be set."))  # fmt: skip
        replies.append(_reply(document, position, names[0], entry[names[0]]))
    revision = document["revisionId"].rsplit("-", 1)
    control = {"requiredRevisionId": f"{revision[0]}-{int(revision[1]) + 1}"}
    return ApiReply(body={"replies": replies, "writeControl": control, "documentId": document["documentId"]})


def install(server: FakeApiServer) -> None:
    server.route("GET", r"/v1/documents/(?P<id>[^/:]+)", _get, host=HOST)
    server.route("POST", r"/v1/documents/(?P<id>[^/:]+):batchUpdate", _batch_update, host=HOST)


__all__ = ["HOST", "NOTES", "REPORT", "TOKENS", "install"]
