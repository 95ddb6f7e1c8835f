"""The fake Gmail mailbox (:mod:`weft.testing.saas.gmail`): the account, its labels, five messages in three
threads (newest first) and one draft, each message a fixed RFC 822 text."""

from __future__ import annotations

import functools
from dataclasses import dataclass
from email import message_from_bytes, policy
from email.message import EmailMessage
from typing import Any

PROFILE = {"emailAddress": "weft.tester@example.com", "messagesTotal": 5, "threadsTotal": 3, "historyId": "1099"}


def _system(label_id: str) -> dict[str, Any]:
    return {"id": label_id, "name": label_id, "type": "system"}


LABELS: list[dict[str, Any]] = [
    {**_system("CHAT"), "messageListVisibility": "hide", "labelListVisibility": "labelHide"},
    _system("SENT"),
    _system("INBOX"),
    {**_system("IMPORTANT"), "messageListVisibility": "hide", "labelListVisibility": "labelHide"},
    _system("TRASH"),
    _system("DRAFT"),
    _system("SPAM"),
    _system("STARRED"),
    _system("UNREAD"),
    {"id": "Label_1", "name": "Invoices", "messageListVisibility": "show", "labelListVisibility": "labelShow",
     "type": "user"},
    {"id": "Label_2", "name": "Receipts", "messageListVisibility": "show", "labelListVisibility": "labelShow",
     "type": "user", "color": {"textColor": "#ffffff", "backgroundColor": "#16a766"}},
]  # fmt: skip


@dataclass(frozen=True)
class Message:
    id: str
    thread_id: str
    labels: list[str]
    snippet: str
    history_id: str
    internal_date: str
    text: str

    @property
    def raw(self) -> bytes:
        return self.text.replace("\n", "\r\n").encode()

    def parsed(self) -> EmailMessage:
        return _parse(self.raw)


@functools.lru_cache(maxsize=32)
def _parse(raw: bytes) -> EmailMessage:
    message = message_from_bytes(raw, policy=policy.default)
    assert isinstance(message, EmailMessage)
    return message


_M1 = """MIME-Version: 1.0
Date: Mon, 1 Jan 2024 10:00:00 +0000
Message-ID: <inv42@mail.example.com>
Subject: Invoice 42
From: Ada Lovelace <ada@example.com>
To: weft.tester@example.com
Content-Type: text/plain; charset="UTF-8"

Hello,
please find invoice 42 attached to the portal.
Ada
"""

_M2 = """MIME-Version: 1.0
Date: Mon, 1 Jan 2024 12:30:00 +0000
Message-ID: <re-inv42@mail.example.com>
In-Reply-To: <inv42@mail.example.com>
References: <inv42@mail.example.com>
Subject: Re: Invoice 42
From: Weft Tester <weft.tester@example.com>
To: Ada Lovelace <ada@example.com>
Content-Type: multipart/alternative; boundary="000000000000b0a1"

--000000000000b0a1
Content-Type: text/plain; charset="UTF-8"

Thanks, paid today.

--000000000000b0a1
Content-Type: text/html; charset="UTF-8"

<div dir="ltr">Thanks, <b>paid</b> today.</div>

--000000000000b0a1--
"""

_M3 = """MIME-Version: 1.0
Date: Tue, 2 Jan 2024 09:15:00 +0000
Message-ID: <notes-0102@mail.example.com>
Subject: Meeting notes
From: Alan Turing <alan@example.com>
To: weft.tester@example.com, Grace Hopper <grace@example.com>
Cc: barbara@example.com
Reply-To: Alan Replies <alan.replies@example.com>
Content-Type: multipart/mixed; boundary="000000000000c0c3"

--000000000000c0c3
Content-Type: text/plain; charset="UTF-8"

It's the notes from today's meeting.

--000000000000c0c3
Content-Type: text/plain; charset="US-ASCII"; name="notes.txt"
Content-Disposition: attachment; filename="notes.txt"
Content-Transfer-Encoding: base64

bGluZSBvbmUKbGluZSB0d28K
--000000000000c0c3--
"""

_M4 = """MIME-Version: 1.0
Date: Wed, 3 Jan 2024 11:00:00 +0000
Message-ID: <lunch@mail.example.com>
Subject: Lunch?
From: Grace Hopper <grace@example.com>
To: weft.tester@example.com
Content-Type: text/html; charset="UTF-8"

<p>Lunch at <i>noon</i> &amp; coffee?</p>
"""

_M5 = """MIME-Version: 1.0
Date: Thu, 4 Jan 2024 08:00:00 +0000
Message-ID: <receipt-77@mail.example.com>
Subject: Receipt 77
From: ada@example.com
To: weft.tester@example.com
Content-Type: text/plain; charset="UTF-8"

Your receipt 77: 12.50 EUR.
"""

_D1 = """MIME-Version: 1.0
Date: Fri, 5 Jan 2024 16:00:00 +0000
Message-ID: <draft-1@mail.example.com>
Subject: Proposal draft
From: weft.tester@example.com
To: bob@example.com
Content-Type: text/plain; charset="UTF-8"

Dear Bob, here is the proposal.
"""

MESSAGES: list[Message] = [
    Message("18cd0a0000000005", "18cd0a0000000005", ["Label_2", "CATEGORY_UPDATES", "INBOX"],
            "Your receipt 77: 12.50 EUR.", "1090", "1704355200000", _M5),
    Message("18cd0a0000000004", "18cd0a0000000004", ["UNREAD", "INBOX"],
            "Lunch at noon &amp; coffee?", "1080", "1704279600000", _M4),
    Message("18cd0a0000000003", "18cd0a0000000003", ["IMPORTANT", "INBOX"],
            "It&#39;s the notes from today&#39;s meeting.", "1070", "1704186900000", _M3),
    Message("18cd0a0000000002", "18cd0a0000000001", ["SENT"],
            "Thanks, paid today.", "1060", "1704112200000", _M2),
    Message("18cd0a0000000001", "18cd0a0000000001", ["UNREAD", "Label_1", "INBOX"],
            "Hello, please find invoice 42 attached to the portal. Ada", "1050", "1704103200000", _M1),
    Message("18cd0a00000000d1", "18cd0a00000000d1", ["DRAFT"],
            "Dear Bob, here is the proposal.", "1095", "1704470400000", _D1),
]  # fmt: skip

DRAFTS: list[dict[str, Any]] = [{"id": "r5012345678901234567", "message": "18cd0a00000000d1"}]

__all__ = ["DRAFTS", "LABELS", "MESSAGES", "PROFILE", "Message"]
