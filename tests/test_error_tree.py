"""One error tree: every exception class Weft defines descends from :class:`weft.errors.WeftError`, so callers
can tell Weft's own errors from a bug's, and each answers ``to_json`` in n8n's shape.

The exceptions are listed below, each with why it stays outside. Control flow that node code must not swallow
derives from ``BaseException`` (:class:`weft.errors.EngineSignal`) and is not an ``Exception``.
"""

from __future__ import annotations

import json
import subprocess
import sys

#: ``module.Class`` → why it is not a WeftError.
ALLOWED: dict[str, str] = {
    # A stdlib or framework base is its contract.
    "weft.server.security.PayloadTooLargeError": "a Starlette HTTPException, answered 413 by its own handler",
    "weft.nodes.files.access.FileSystemError": "an OSError beside the OS's own; the file nodes convert both",
    # Raised and caught in one module (private control flow, never seen outside it).
    "weft.expressions.code._CodeFailure": "caught by run_code / run_code_for_item, turned into a NodeError",
    "weft.expressions.evaluator._OverBudget": "a time-sliced evaluation goes on in a worker thread",
    "weft.expressions.fastops._NotSupported": "compile_operation's parser: the expression goes to the sandbox",
    "weft.library.files._extract_move._MoveError": "caught by move_to, which answers n8n's error item",
    "weft.nodes.values._Invalid": "caught by validate_field_type",
    "weft.server.mcp.routes._WrongMethod": "caught by _serve, which answers n8n's 404",
    "weft.server.routes.rest_workflows_from_url._FetchError": "caught by fetch_workflow",
    # The sandboxed Python child: its guard's refusal crosses the process boundary as a flagged message.
    "weft.sandbox_py._guards.SecurityViolation": "raised in the sandbox's child process, never in Weft's",
    # Fakes of remote services (weft.testing): the fake's own refusals, answered over HTTP, never raised to Weft.
    "weft.testing.fake_api.Rejected": "a fake API's refusal, answered as an HTTP error",
    "weft.testing.saas._aws_iam.IamError": "the fake IAM's refusal, answered as an HTTP error",
    "weft.testing.saas.supabase._Columns": "the fake Supabase's refusal, answered as an HTTP error",
    "weft.testing.service_servers.ServiceMissing": "a test's service server is not configured (says how)",
    # Node-internal errors of the kit and the library, converted to a NodeError by the node that calls them
    # (issue 23 re-parented the public errors outside nodes; these are next, each with its `except WeftError`
    # callers checked).
    "weft.library.core._crypto_cipher.CipherError": "node-internal (Crypto)",
    "weft.library.core._filter.FilterError": "node-internal (Filter, If, Switch)",
    "weft.library.core._html_select.SelectorError": "node-internal (HTML)",
    "weft.library.core._set_helpers.SetFieldError": "node-internal (Set)",
    "weft.library.core.split_out.DestinationCountError": "node-internal (Split Out)",
    "weft.library.edit_image._codec.ImageError": "node-internal (Edit Image)",
    "weft.library.edit_image._colors.ColorError": "node-internal (Edit Image)",
    "weft.library.edit_image._ops.OperationError": "node-internal (Edit Image)",
    "weft.library.edit_image._steps.StepError": "node-internal (Edit Image)",
    "weft.library.files._convert_ical.IcsError": "node-internal (Convert to File)",
    "weft.library.files._extract_csv.CsvError": "node-internal (Extract from File)",
    "weft.library.files._extract_ics.IcsParseError": "node-internal (Extract from File)",
    "weft.library.files._extract_readers.UnreadableSpreadsheet": "node-internal (Extract from File)",
    "weft.library.files._spreadsheet_read.ReadError": "node-internal (Spreadsheet File)",
    "weft.library.mysql._mysql_client.MySqlError": "node-internal (MySQL)",
    "weft.library.notion.filters_v3.FilterError": "node-internal (Notion)",
    "weft.library.postgres._postgres_client.PgError": "node-internal (Postgres)",
    "weft.library.postgres._postgres_format.FormatError": "node-internal (Postgres)",
    "weft.library.rss._rss_parser.FeedError": "node-internal (RSS Read)",
    "weft.nodes.files.pdf.PdfError": "node-internal (Extract from File, the PDF loader)",
    "weft.nodes.mail.smtp.SmtpSendError": "node-internal (Send Email, the email HITL tool)",
    "weft.nodes.user_regex.RegexTimedOut": "node-internal (user regexes: Filter, If, Switch, files)",
    "weft.nodes.user_regex._syntax.RegexSyntaxError": "node-internal (user regexes)",
    "weft.nodes.xml.build.BuildError": "node-internal (XML)",
    "weft.nodes.xml.sax_tags.SaxError": "node-internal (XML, RSS Read, Azure ports)",
}

#: Imports every module of weft in a fresh interpreter (as ``test_public_surface`` does) and prints the exception
#: classes each defines that are not WeftErrors.
_WALK = """
import importlib, inspect, json, pkgutil, weft
from weft.errors import WeftError
found = []
for info in pkgutil.walk_packages(weft.__path__, "weft."):
    if "__main__" in info.name or ".migrations" in info.name:
        continue
    module = importlib.import_module(info.name)
    for value in vars(module).values():
        if inspect.isclass(value) and value.__module__ == module.__name__ and issubclass(value, Exception):
            if not issubclass(value, WeftError):
                found.append(f"{value.__module__}.{value.__qualname__}")
print(json.dumps(sorted(found)))
"""


def _outside_the_tree() -> set[str]:
    result = subprocess.run([sys.executable, "-c", _WALK], capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr[-2000:]
    return set(json.loads(result.stdout.splitlines()[-1]))


def test_every_weft_exception_is_a_weft_error_or_listed() -> None:
    outside = _outside_the_tree()
    unlisted = sorted(outside - set(ALLOWED))
    assert not unlisted, (
        f"{unlisted} subclass Exception outside weft.errors.WeftError: derive them from WeftError (or the "
        "WeftError subclass that says who must act), or list them in ALLOWED with the reason"
    )
    stale = sorted(set(ALLOWED) - outside)
    assert not stale, f"{stale} are WeftErrors now (or gone): take them out of ALLOWED"
