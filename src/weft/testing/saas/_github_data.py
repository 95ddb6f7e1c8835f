"""The seeded repository the fake GitHub API answers from: ``weft-org/engine`` with its users, issues, files,
releases, repositories and pull request 7 with its reviews (ids and times fixed, so every run answers the same)."""

from __future__ import annotations

import base64
from typing import Any

from weft.testing.saas._github_common import API, OWNER, REPO, TIME


def user(login: str, number: int) -> dict[str, Any]:
    return {"login": login, "id": 1000 + number, "type": "User", "site_admin": False,
            "html_url": f"https://github.com/{login}", "url": f"{API}/users/{login}"}  # fmt: skip


USERS = {name: user(name, n) for n, name in enumerate(("octo-ada", "octo-alan", "octo-grace", "weft-bot"))}


def label(name: str, color: str) -> dict[str, Any]:
    return {"id": 2000 + len(name), "name": name, "color": color, "default": False, "description": None}


def issue(
    number: int, title: str, state: str = "open", labels: tuple[str, ...] = (), login: str = "octo-ada"
) -> dict[str, Any]:
    return {
        "url": f"{API}/repos/{OWNER}/{REPO}/issues/{number}",
        "html_url": f"https://github.com/{OWNER}/{REPO}/issues/{number}",
        "id": 5000 + number,
        "number": number,
        "title": title,
        "user": USERS[login],
        "labels": [label(name, "d73a4a" if name == "bug" else "a2eeef") for name in labels],
        "state": state,
        "locked": False,
        "assignees": [],
        "comments": number % 3,
        "created_at": f"2024-04-{number:02d}T09:00:00Z",
        "updated_at": f"2024-04-{number:02d}T12:00:00Z",
        "closed_at": None if state == "open" else f"2024-04-{number:02d}T15:00:00Z",
        "body": f"Details of issue {number}.",
    }


ISSUES = [
    issue(1, "Expressions lose precision", labels=("bug",)),
    issue(2, "Add a Trello node", labels=("enhancement",), login="octo-alan"),
    issue(3, "Crash on empty input", "closed", ("bug",)),
    issue(4, "Docs: recorded cases", login="octo-grace"),
    issue(5, "Binary data in queue mode", labels=("bug",), login="octo-alan"),
    issue(6, "Retry on 429", "closed", login="weft-bot"),
    issue(7, "Support GitHub App auth", labels=("enhancement",)),
]

FILES = {
    "README.md": "# Weft\n\nRuns n8n workflows.\n",
    "docs/usage.md": "Usage: weft start\n",
    "docs/nodes.md": "Nodes: 400\n",
}


def sha(path: str) -> str:
    return (path.encode().hex() + "0" * 40)[:40]


def file_content(path: str) -> dict[str, Any]:
    content = base64.b64encode(FILES[path].encode()).decode()
    return {**entry(path, "file"), "size": len(FILES[path]), "encoding": "base64", "content": content}


def entry(path: str, kind: str) -> dict[str, Any]:
    url = f"{API}/repos/{OWNER}/{REPO}/contents/{path}?ref=main"
    return {"name": path.rsplit("/", 1)[-1], "path": path, "sha": sha(path), "size": 0, "url": url,
            "html_url": f"https://github.com/{OWNER}/{REPO}/blob/main/{path}", "type": kind}  # fmt: skip


def release(number: int, tag: str, draft: bool = False) -> dict[str, Any]:
    return {
        "url": f"{API}/repos/{OWNER}/{REPO}/releases/{9000 + number}",
        "id": 9000 + number,
        "tag_name": tag,
        "target_commitish": "main",
        "name": f"Weft {tag}",
        "draft": draft,
        "prerelease": False,
        "author": USERS["weft-bot"],
        "created_at": f"2024-0{number}-01T08:00:00Z",
        "published_at": None if draft else f"2024-0{number}-01T09:00:00Z",
        "body": f"Release notes of {tag}.",
    }


RELEASES = [release(4, "v0.4.0"), release(3, "v0.3.0"), release(2, "v0.2.0"), release(1, "v0.1.0")]


def review(number: int, state: str, body: str, login: str) -> dict[str, Any]:
    return {"id": 80 + number, "user": USERS[login], "body": body, "state": state, "commit_id": "c0ffee" * 6 + "c0ff",
            "pull_request_url": f"{API}/repos/{OWNER}/{REPO}/pulls/7", "submitted_at": TIME}  # fmt: skip


REVIEWS = [review(1, "APPROVED", "Looks good.", "octo-grace"), review(2, "COMMENTED", "One nit.", "octo-alan")]


def repo(name: str, number: int, owner: str = OWNER) -> dict[str, Any]:
    return {
        "id": 700 + number,
        "name": name,
        "full_name": f"{owner}/{name}",
        "private": False,
        "owner": {"login": owner, "id": 42, "type": "Organization"},
        "html_url": f"https://github.com/{owner}/{name}",
        "description": f"The {name} repository",
        "fork": False,
        "default_branch": "main",
        "stargazers_count": 10 * number,
        "open_issues_count": number,
        "created_at": "2023-01-01T00:00:00Z",
        "license": {"key": "apache-2.0", "name": "Apache License 2.0", "spdx_id": "Apache-2.0"},
    }


REPOS = [repo(REPO, 1), repo("docs", 2), repo("recordings", 3), repo("website", 4), repo("bench", 5)]

PULL: dict[str, Any] = {"id": 6007, "number": 7, "state": "open", "title": "Trello node", "body": "Adds Trello.",
        "draft": False, "merged": False, "head": {"ref": "trello"}, "base": {"ref": "main"}}  # fmt: skip
DIFF = "diff --git a/trello.py b/trello.py\nnew file mode 100644\n+print('trello')\n"
