"""A fake Slack Web API (``https://slack.com/api/<method>``, and the upload URLs on ``files.slack.com``), as Slack
answers: HTTP 200 with ``{"ok": true, ...}``, or 200 with ``{"ok": false, "error": "channel_not_found"}`` for an
error (``invalid_auth`` for a wrong token, ``not_authed`` for none, ``missing_scope`` with ``needed``/``provided``,
``not_allowed_token_type`` for a bot token on ``search.messages``); HTTP 429 with ``Retry-After`` and
``{"ok": false, "error": "ratelimited"}`` for the channel ``C09FLOOD00``. Lists page by cursor
(``response_metadata.next_cursor``, at most :data:`._slack_common.PAGE` entries however large the ``limit``),
``files.list`` and ``search.messages`` by ``page``/``count`` (``paging``). Arguments arrive as the query, JSON, a
form or multipart. It keeps no state: what a write answers is built from the request and the fixed workspace of
:mod:`._slack_data`, so cases run in any order. This module is the entry point (the method table, the routes); the
methods live by resource in :mod:`._slack_chat`, :mod:`._slack_conversations`, :mod:`._slack_reactions`,
:mod:`._slack_users`, :mod:`._slack_usergroups` and :mod:`._slack_files`."""

from __future__ import annotations

from collections.abc import Callable

from weft.testing.fake_api import ApiReply, ApiRequest, FakeApiServer
from weft.testing.saas import _slack_data as data
from weft.testing.saas._slack_chat import (
    delete_message,
    permalink,
    post_ephemeral,
    post_message,
    search_messages,
    update_message,
)
from weft.testing.saas._slack_common import FLOOD, Args, caller_token, fail, parse_args
from weft.testing.saas._slack_conversations import (
    conversations_archive,
    conversations_close,
    conversations_create,
    conversations_history,
    conversations_info,
    conversations_invite,
    conversations_join,
    conversations_kick,
    conversations_leave,
    conversations_list,
    conversations_members,
    conversations_open,
    conversations_rename,
    conversations_replies,
    conversations_unarchive,
    set_text,
)
from weft.testing.saas._slack_files import (
    UPLOAD_HOST,
    complete_upload,
    files_info,
    files_list,
    files_upload,
    upload_bytes,
    upload_url,
)
from weft.testing.saas._slack_reactions import (
    reactions_add,
    reactions_get,
    reactions_remove,
    stars_add,
    stars_list,
    stars_remove,
)
from weft.testing.saas._slack_usergroups import (
    usergroups_create,
    usergroups_list,
    usergroups_switch,
    usergroups_update,
    usergroups_users,
)
from weft.testing.saas._slack_users import (
    users_by_email,
    users_info,
    users_list,
    users_presence,
    users_profile,
    users_profile_set,
)

HOST = "slack.com"
_BOT_SCOPES = "chat:write,channels:read,channels:history,channels:manage,users:read,reactions:write,files:write"


def _scoped(handler: Callable[[ApiRequest, Args], ApiReply], needed: str) -> Callable[[ApiRequest, Args], ApiReply]:
    """Only a user token may call it: a bot token is missing the scope."""

    def guarded(request: ApiRequest, args: Args) -> ApiReply:
        if caller_token(request, args) != data.USER_TOKEN:
            return fail("missing_scope", needed=needed, provided=_BOT_SCOPES)
        return handler(request, args)

    return guarded


METHODS: dict[str, Callable[[ApiRequest, Args], ApiReply]] = {
    "chat.postMessage": post_message,
    "chat.postEphemeral": post_ephemeral,
    "chat.update": update_message,
    "chat.delete": delete_message,
    "chat.getPermalink": permalink,
    "search.messages": search_messages,
    "conversations.list": conversations_list,
    "conversations.history": conversations_history,
    "conversations.replies": conversations_replies,
    "conversations.info": conversations_info,
    "conversations.create": conversations_create,
    "conversations.archive": conversations_archive,
    "conversations.unarchive": conversations_unarchive,
    "conversations.join": conversations_join,
    "conversations.invite": conversations_invite,
    "conversations.members": conversations_members,
    "conversations.setTopic": set_text("topic"),
    "conversations.setPurpose": set_text("purpose"),
    "conversations.rename": conversations_rename,
    "conversations.leave": conversations_leave,
    "conversations.kick": conversations_kick,
    "conversations.open": conversations_open,
    "conversations.close": conversations_close,
    "stars.add": stars_add,
    "stars.remove": stars_remove,
    "stars.list": stars_list,
    "users.info": users_info,
    "users.list": users_list,
    "users.getPresence": users_presence,
    "users.profile.get": users_profile,
    "users.profile.set": users_profile_set,
    "users.lookupByEmail": users_by_email,
    "reactions.add": reactions_add,
    "reactions.remove": reactions_remove,
    "reactions.get": reactions_get,
    "files.info": files_info,
    "files.list": files_list,
    "files.upload": files_upload,
    "files.getUploadURLExternal": upload_url,
    "files.completeUploadExternal": complete_upload,
    "usergroups.list": usergroups_list,
    "usergroups.create": _scoped(usergroups_create, "usergroups:write"),
    "usergroups.update": _scoped(usergroups_update, "usergroups:write"),
    "usergroups.enable": _scoped(usergroups_switch(True), "usergroups:write"),
    "usergroups.disable": _scoped(usergroups_switch(False), "usergroups:write"),
    "usergroups.users.update": _scoped(usergroups_users, "usergroups:write"),
}


def call(request: ApiRequest) -> ApiReply:
    """``/api/<method>``: the method's answer, after the token."""
    handler = METHODS.get(request.params["method"])
    if handler is None:
        return fail("unknown_method")
    args = parse_args(request)
    caller_token(request, args)
    return handler(request, args)


def install(server: FakeApiServer) -> None:
    server.route("*", r"/api/(?P<method>[A-Za-z.]+)", call, host=HOST)
    server.route("POST", r"/upload/v1/.+", upload_bytes, host=UPLOAD_HOST)


__all__ = ["FLOOD", "HOST", "install"]
