"""The chapter 19 example prints the book's stack trace and run counts."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

EXPECTED = """\
▶ Start      stack after pop: []
✓ Start      output as main             stack: [Question]
▶ Question   stack after pop: []
✓ Question   output as main             stack: [AI Agent]
▶ AI Agent   stack after pop: []
▶ Model      stack after pop: []
✓ Model      output as ai_languageModel stack: []
▶ Calculator stack after pop: [Shout, AI Agent(resume: 2 results)]
✓ Calculator output as ai_tool          stack: [Shout, AI Agent(resume: 2 results)]
▶ Shout      stack after pop: [AI Agent(resume: 2 results)]
✓ Shout      output as ai_tool          stack: [AI Agent(resume: 2 results)]
▶ Model      stack after pop: []
✓ Model      output as ai_languageModel stack: []
✓ AI Agent   output as main             stack: []

answer: Based on the tools: Calculator returned 42; Shout returned SHOUT HI AND COMPUTE 6 * 7.
runs  : Start=1 Question=1 Model=2 Calculator=1 Shout=1 AI Agent=1
"""


def test_example_prints_the_chapter_19_trace() -> None:
    result = subprocess.run(
        [sys.executable, str(ROOT / "examples" / "agent_stack_trace.py")],
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=120,
        check=True,
    )
    assert result.stdout == EXPECTED


def test_run_counts_agent_once_model_twice_each_tool_once() -> None:
    result = subprocess.run(
        [sys.executable, str(ROOT / "examples" / "agent_stack_trace.py")],
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=120,
        check=True,
    )
    runs = dict(re.findall(r"(\w[\w ]*?)=(\d+)", result.stdout.splitlines()[-1].removeprefix("runs  : ")))
    assert runs["AI Agent"] == "1" and runs["Model"] == "2"
    assert runs["Calculator"] == "1" and runs["Shout"] == "1"
