"""Records what a live n8n does with an ``emailSendHitlTool`` approval (run by hand; the tests read its JSON).

    .venv/bin/python tests/email_send/_record_n8n_hitl.py N8N_ANCHOR FAKE_LLM_PY OUT_NAME

As ``_record_n8n.py`` (same environment), with the oracle's scripted OpenAI-compatible model (``FAKE_LLM_PY``,
on ``FAKE_LLM_PORT``). For a260 (approve) and a261 (decline): call the webhook (the agent calls the gated Refund
tool, the HITL node mails the question), open the link as a browser, read the finished execution, open it again.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from _record_n8n import BROWSER, CREDENTIAL, _answer, _api, _env, _execution, _latest, _links, _n8n, _summary
from tests._live_n8n import start_n8n

from weft.testing.smtp_server import RECORDED_PORT, SmtpCaptureServer

HERE = Path(__file__).parent
CASES = {"a260": "approve", "a261": "decline"}


def _case(base: str, api: httpx.Client, smtp: SmtpCaptureServer, case: str, llm_log: Path) -> dict[str, Any]:
    workflow = json.loads((HERE / "n8n" / f"{case}_workflow.json").read_text())
    seen = {str(r["id"]) for r in api.get("/api/v1/executions").json().get("data", [])}
    before = len(smtp.messages)
    started = httpx.post(f"{base}/webhook/email-hitl-{case}", json={}, timeout=30)
    execution_id = _latest(api, workflow["id"], seen)
    waiting = _execution(api, execution_id, "waiting")
    mail = smtp.wait_for(before + 1, timeout=60)[-1]
    decline, approve = _links(mail.raw)
    chosen = approve if CASES[case] == "approve" else decline
    clicked = httpx.get(chosen, headers={"user-agent": BROWSER}, timeout=30)
    finished = _execution(api, execution_id, "success")
    again = httpx.get(chosen, headers={"user-agent": BROWSER}, timeout=30)
    requests = [json.loads(line)["request"] for line in llm_log.read_text().splitlines() if line.strip()]
    html = str(mail.message.get_body(preferencelist=("html",)).get_content())  # type: ignore[union-attr]
    return {
        "start": {"status": started.status_code, "body": started.json()},
        "mail": {
            "subject": mail.message["Subject"],
            "rcpt_tos": mail.rcpt_tos,
            "html": html,
            "links": [link.split(f"/{execution_id}/")[1].split("&signature=")[0] for link in (decline, approve)],
        },
        "waiting": _summary(waiting),
        "click": _answer(clicked),
        "finished": _summary(finished),
        "again": _answer(again),
        "model_requests": [{"tools": r.get("tools"), "messages": r["messages"]} for r in requests],
    }


def main(anchor: str, fake_llm: str, out_name: str) -> None:
    env = _env()
    base = f"http://127.0.0.1:{env['ACC_N8N_PORT']}"
    results: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as tmp, SmtpCaptureServer(RECORDED_PORT) as smtp:
        creds = Path(tmp) / "creds.json"
        url = f"http://127.0.0.1:{env['FAKE_LLM_PORT']}/v1"
        fake = {"id": "accFakeOpenAi0001", "name": "Fake OpenAI (acceptance)", "type": "openAiApi",
                "data": {"apiKey": "sk-fake", "url": url, "header": False}}  # fmt: skip
        creds.write_text(json.dumps([CREDENTIAL, fake]))
        _n8n(anchor, "import:credentials", f"--input={creds}")
        for case in CASES:
            path = HERE / "n8n" / f"{case}_workflow.json"
            _n8n(anchor, "import:workflow", f"--input={path}")
            _n8n(anchor, "publish:workflow", f"--id={json.loads(path.read_text())['id']}")
        server = start_n8n(anchor, env, base, Path(tmp) / "n8n.log")
        try:
            api = _api(base)
            for case in CASES:
                llm_log = Path(tmp) / f"{case}.jsonl"
                script = str(HERE / "n8n" / "llm_script.json")
                model = subprocess.Popen([sys.executable, fake_llm, "--port", env["FAKE_LLM_PORT"], "--script", script,
                                          "--log", str(llm_log)])  # fmt: skip
                try:
                    time.sleep(1.5)
                    results[case] = _case(base, api, smtp, case, llm_log)
                finally:
                    model.terminate()
                    model.wait(10)
        finally:
            server.terminate()
            server.wait(30)
            print((Path(tmp) / "n8n.log").read_text()[-3000:])
    target = HERE / "n8n" / out_name
    target.write_text(json.dumps(results, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    print(f"wrote {target}")


if __name__ == "__main__":
    main(*sys.argv[1:4])
