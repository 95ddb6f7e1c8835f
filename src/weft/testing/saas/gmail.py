"""A fake Gmail API (``/gmail/v1/users/me/...`` on ``www.googleapis.com``, where n8n's Gmail node sends it, and
on ``gmail.googleapis.com``), as Gmail answers: bearer-token auth (:data:`TOKEN`, or the service account token of
:mod:`weft.testing.saas.google_oauth`), Google's error bodies (401, 400 "Invalid id value" for an id that is no
hex, 404, 409 for a label name taken), 429 with ``Retry-After`` for the id ``ffffffffffff0429``, pages of at most
three messages or threads with ``nextPageToken``, the ``raw``, ``metadata`` (``metadataHeaders``), ``full`` and
``minimal`` formats.

Seeded: five messages in three threads, one draft, Gmail's system labels and two user labels. It keeps no state
that a case reads: a sent message or a created draft or label is answered from the request, its id a hash of the
decoded mail (recipients, subject, bodies, attachments; not the random boundaries, ``Date`` or ``Message-ID``), so
a mail built differently gets another id. What was sent is kept in ``server.state["gmail"]["sent"]`` (decoded) for
tests to read.
"""

from __future__ import annotations

import functools
from typing import Any

from weft.testing.fake_api import ApiReply, ApiRequest, FakeApiServer
from weft.testing.saas._gmail_common import RATE_LIMITED, TOKEN, authorized
from weft.testing.saas._gmail_data import PROFILE
from weft.testing.saas._gmail_drafts import create_draft, delete_draft, get_draft, list_drafts
from weft.testing.saas._gmail_labels import create_label, delete_label, get_label, list_labels
from weft.testing.saas._gmail_messages import delete_message, get_message, list_messages, modify_message
from weft.testing.saas._gmail_sending import send_message, summary
from weft.testing.saas._gmail_threads import delete_thread, get_thread, list_threads, modify_thread, trash_thread

HOSTS = ("www.googleapis.com", "gmail.googleapis.com")
_PREFIX = "/gmail/v1/users/me"


def get_profile(request: ApiRequest) -> ApiReply:
    authorized(request)
    return ApiReply(body=PROFILE)


_ROUTES: list[tuple[str, str, Any]] = [
    ("GET", "/profile", get_profile),
    ("GET", "/messages", list_messages),
    ("POST", "/messages/send", send_message),
    ("GET", "/messages/(?P<id>[^/]+)", get_message),
    ("DELETE", "/messages/(?P<id>[^/]+)", delete_message),
    ("POST", "/messages/(?P<id>[^/]+)/modify", modify_message),
    ("GET", "/labels", list_labels),
    ("POST", "/labels", create_label),
    ("GET", "/labels/(?P<id>[^/]+)", get_label),
    ("DELETE", "/labels/(?P<id>[^/]+)", delete_label),
    ("GET", "/drafts", list_drafts),
    ("POST", "/drafts", create_draft),
    ("GET", "/drafts/(?P<id>[^/]+)", get_draft),
    ("DELETE", "/drafts/(?P<id>[^/]+)", delete_draft),
    ("GET", "/threads", list_threads),
    ("GET", "/threads/(?P<id>[^/]+)", get_thread),
    ("DELETE", "/threads/(?P<id>[^/]+)", delete_thread),
    ("POST", "/threads/(?P<id>[^/]+)/modify", modify_thread),
    ("POST", "/threads/(?P<id>[^/]+)/(?:un)?trash", trash_thread),
]


def install(server: FakeApiServer) -> None:
    sent: list[Any] = []
    server.__dict__.setdefault("state", {})["gmail"] = {"sent": sent}
    for host in HOSTS:
        for method, path, handler in _ROUTES:
            if handler in (send_message, create_draft):
                handler = functools.partial(handler, sent=sent)
            server.route(method, _PREFIX + path, handler, host=host)


__all__ = ["HOSTS", "RATE_LIMITED", "TOKEN", "install", "summary"]
