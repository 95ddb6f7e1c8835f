"""The README's RAG example as a newcomer runs it: ``weft execute`` reads the Markdown files of
``examples/rag_docs`` (file access allowed there), stores them in the Simple Vector Store with the keyless Demo
Embeddings, and the Demo Chat Model's agent answers from the handbook tool. No API key, no network."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "rag_agent.json"


def execute(tmp_path: Path, restrict_to: str) -> tuple[int, dict[str, Any]]:
    env = {**os.environ, "WEFT_USER_FOLDER": str(tmp_path), "WEFT_RESTRICT_FILE_ACCESS_TO": restrict_to}
    for key in ("OPENAI_API_KEY", "ANTHROPIC_API_KEY"):
        env.pop(key, None)
    done = subprocess.run(
        [sys.executable, "-m", "weft", "execute", "--file", str(EXAMPLE.relative_to(ROOT)), "--json"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    return done.returncode, json.loads(done.stdout)


def test_the_agent_answers_from_the_markdown_files(tmp_path: Path) -> None:
    code, run = execute(tmp_path, "examples/rag_docs")
    assert code == 0, run["data"]["resultData"].get("error")
    data = run["data"]["resultData"]["runData"]
    stored = [item["json"] for item in data["Store Documents"][0]["data"]["main"][0]]
    assert sorted(Path(d["metadata"]["file"]).name for d in stored) == [
        "expenses.md",
        "holidays.md",
        "office.md",
        "passwords.md",
    ]
    answer = data["AI Agent"][0]["data"]["main"][0][0]["json"]["output"]
    assert answer.startswith("Based on the tools: Handbook returned")
    first_hit = answer.index("reset your password")
    assert all(first_hit < answer.find(other) or answer.find(other) < 0 for other in ("28 days", "7:30"))


def test_without_file_access_the_read_is_refused(tmp_path: Path) -> None:
    code, run = execute(tmp_path, str(tmp_path / "elsewhere"))
    assert code != 0
    assert run["data"]["resultData"]["error"]["message"] == "Access to the file is not allowed."
