"""The fixed workspace the fake Slack API answers from: its team, users, channels, messages, files and user
groups (ids and timestamps fixed, so every run answers the same)."""

from __future__ import annotations

from typing import Any

TEAM = "T0WEFT0001"
DOMAIN = "weft-test"
CREATED = 1735689600
BOT_TOKEN = "xoxb-1111-2222-FakeWeftBotToken"
USER_TOKEN = "xoxp-1111-3333-FakeWeftUserToken"
BOT_USER = "U0BOTWEFT1"
BOT_ID = "B0WEFTBOT1"
APP_ID = "A0WEFTAPP1"


def _user(uid: str, name: str, real: str, email: str, **extra: Any) -> dict[str, Any]:
    first, _, last = real.partition(" ")
    profile = {
        "title": extra.pop("title", ""),
        "phone": "",
        "real_name": real,
        "real_name_normalized": real,
        "display_name": name,
        "display_name_normalized": name,
        "status_text": "",
        "status_emoji": "",
        "status_expiration": 0,
        "first_name": first,
        "last_name": last,
        "email": email,
        "image_48": f"https://avatars.slack-edge.com/{uid}_48.png",
        "team": TEAM,
    }
    return {
        "id": uid,
        "team_id": TEAM,
        "name": name,
        "deleted": False,
        "color": "9f69e7",
        "real_name": real,
        "tz": "Europe/London",
        "tz_label": "Greenwich Mean Time",
        "tz_offset": 0,
        "profile": profile,
        "is_admin": extra.pop("is_admin", False),
        "is_owner": False,
        "is_bot": extra.pop("is_bot", False),
        "is_app_user": False,
        "updated": CREATED,
        **extra,
    }


USERS: list[dict[str, Any]] = [
    _user("U01ADA0001", "ada", "Ada Lovelace", "ada@weft.example", title="Analyst", is_admin=True),
    _user("U02GRACE01", "grace", "Grace Hopper", "grace@weft.example", title="Rear Admiral"),
    _user("U03ALAN001", "alan", "Alan Turing", "alan@weft.example"),
    _user("U04EDSGER1", "edsger", "Edsger Dijkstra", "edsger@weft.example"),
    _user("U05BARB001", "barbara", "Barbara Liskov", "barbara@weft.example"),
    _user(BOT_USER, "weftbot", "Weft Bot", "", is_bot=True),
]
USER_BY_ID = {user["id"]: user for user in USERS}
USER_BY_NAME = {user["name"]: user for user in USERS}
PRESENCE = {"U01ADA0001": "active", "U02GRACE01": "away"}


def _channel(cid: str, name: str, purpose: str, members: list[str], **flags: Any) -> dict[str, Any]:
    private = flags.pop("is_private", False)
    return {
        "id": cid,
        "name": name,
        "is_channel": not private,
        "is_group": private,
        "is_im": False,
        "is_mpim": False,
        "is_private": private,
        "created": CREATED,
        "is_archived": flags.pop("is_archived", False),
        "is_general": name == "general",
        "unlinked": 0,
        "name_normalized": name,
        "is_shared": False,
        "is_org_shared": False,
        "is_member": BOT_USER in members,
        "creator": "U01ADA0001",
        "updated": CREATED * 1000,
        "topic": {"value": flags.pop("topic", ""), "creator": "", "last_set": 0},
        "purpose": {"value": purpose, "creator": "U01ADA0001", "last_set": CREATED},
        "previous_names": [],
        "num_members": len(members),
    }


CHANNELS: list[dict[str, Any]] = [
    _channel("C01GENERAL", "general", "Company-wide announcements", [u["id"] for u in USERS], topic="Welcome"),
    _channel("C02RANDOM0", "random", "Anything goes", ["U01ADA0001", "U02GRACE01", BOT_USER]),
    _channel("C03DEPLOYS", "deploys", "Deploy notices", ["U01ADA0001", "U03ALAN001", BOT_USER]),
    _channel("C04DESIGN0", "design", "Design reviews", ["U02GRACE01", "U05BARB001"]),
    _channel("C05OLDNEWS", "old-news", "Archived", ["U01ADA0001"], is_archived=True),
    _channel("G06SECRET0", "secret-project", "Private work", ["U01ADA0001", BOT_USER], is_private=True),
    _channel("C07SUPPORT", "support", "Customer questions", ["U03ALAN001", "U04EDSGER1", BOT_USER]),
]
CHANNEL_BY_ID = {channel["id"]: channel for channel in CHANNELS}
CHANNEL_BY_NAME = {channel["name"]: channel for channel in CHANNELS}
MEMBERS: dict[str, list[str]] = {
    "C01GENERAL": [u["id"] for u in USERS],
    "C02RANDOM0": ["U01ADA0001", "U02GRACE01", BOT_USER],
    "C03DEPLOYS": ["U01ADA0001", "U03ALAN001", BOT_USER],
    "C04DESIGN0": ["U02GRACE01", "U05BARB001"],
    "C05OLDNEWS": ["U01ADA0001"],
    "G06SECRET0": ["U01ADA0001", BOT_USER],
    "C07SUPPORT": ["U03ALAN001", "U04EDSGER1", BOT_USER],
}


def _message(ts: str, user: str, text: str, **extra: Any) -> dict[str, Any]:
    return {"type": "message", "user": user, "text": text, "ts": ts, "team": TEAM, **extra}


_AUTHORS = ["U01ADA0001", "U02GRACE01", "U03ALAN001"]
#: Each channel's messages, newest first (as ``conversations.history`` answers).
HISTORY: dict[str, list[dict[str, Any]]] = {
    "C03DEPLOYS": [
        _message(f"17356{96 - n:02d}000.000{n:03d}", _AUTHORS[n % 3], f"deploy #{24 - n} of weft finished")
        for n in range(24)
    ],
    "C01GENERAL": [
        _message(
            "1735689900.000200",
            "U02GRACE01",
            "Lunch at noon?",
            reactions=[{"name": "thumbsup", "users": ["U01ADA0001", "U03ALAN001"], "count": 2}],
        ),
        _message(
            "1735689800.000150",
            "U01ADA0001",
            "Release notes are out",
            reply_count=2,
            thread_ts="1735689800.000150",
            latest_reply="1735689860.000170",
        ),
        _message("1735689700.000100", "U03ALAN001", "Good morning"),
    ],
}
REPLIES = {
    ("C01GENERAL", "1735689800.000150"): [
        HISTORY["C01GENERAL"][1],
        _message(
            "1735689830.000160", "U02GRACE01", "Thanks!", thread_ts="1735689800.000150", parent_user_id="U01ADA0001"
        ),
        _message(
            "1735689860.000170", "U03ALAN001", "Great work", thread_ts="1735689800.000150", parent_user_id="U01ADA0001"
        ),
    ],
}


def _file(fid: str, name: str, mimetype: str, size: int, channel: str, user: str, n: int) -> dict[str, Any]:
    stem, _, kind = name.rpartition(".")
    return {
        "id": fid,
        "created": CREATED + n * 60,
        "timestamp": CREATED + n * 60,
        "name": name,
        "title": stem,
        "mimetype": mimetype,
        "filetype": kind,
        "pretty_type": kind.upper(),
        "user": user,
        "size": size,
        "mode": "hosted",
        "is_external": False,
        "is_public": True,
        "url_private": f"https://files.slack.com/files-pri/{TEAM}-{fid}/{name}",
        "permalink": f"https://{DOMAIN}.slack.com/files/{user}/{fid}/{name}",
        "channels": [channel],
        "comments_count": 0,
    }


FILES: list[dict[str, Any]] = [
    _file("F01REPORT1", "report.pdf", "application/pdf", 48213, "C01GENERAL", "U01ADA0001", 1),
    _file("F02CHART01", "chart.png", "image/png", 10240, "C03DEPLOYS", "U03ALAN001", 2),
    _file("F03NOTES01", "notes.txt", "text/plain", 512, "C01GENERAL", "U02GRACE01", 3),
    _file("F04BUDGET1", "budget.csv", "text/csv", 2048, "C02RANDOM0", "U01ADA0001", 4),
    _file("F05LOGO001", "logo.svg", "image/svg+xml", 4096, "C04DESIGN0", "U05BARB001", 5),
]
FILE_BY_ID = {file["id"]: file for file in FILES}


def _group(gid: str, handle: str, name: str, users: list[str], active: bool = True) -> dict[str, Any]:
    return {
        "id": gid,
        "team_id": TEAM,
        "is_usergroup": True,
        "name": name,
        "description": f"The {name} team",
        "handle": handle,
        "is_external": False,
        "date_create": CREATED,
        "date_update": CREATED,
        "date_delete": 0 if active else CREATED + 3600,
        "auto_type": None,
        "created_by": "U01ADA0001",
        "updated_by": "U01ADA0001",
        "deleted_by": None,
        "prefs": {"channels": [], "groups": []},
        "users": users,
        "user_count": len(users),
    }


USERGROUPS: list[dict[str, Any]] = [
    _group("S01ENGINE1", "engineers", "Engineers", ["U01ADA0001", "U03ALAN001"]),
    _group("S02DESIGN1", "designers", "Designers", ["U02GRACE01", "U05BARB001"]),
    _group("S03RETIRE1", "retired", "Retired", [], active=False),
]

#: The caller's stars (``stars.list``): messages, a channel and files, oldest first.
STARS: list[dict[str, Any]] = [
    {"type": "message", "channel": "C01GENERAL", "message": HISTORY["C01GENERAL"][0]},
    {"type": "channel", "channel": "C03DEPLOYS"},
    {"type": "message", "channel": "C01GENERAL", "message": HISTORY["C01GENERAL"][2]},
    *({"type": "file", "file": file} for file in FILES[:3]),
]
