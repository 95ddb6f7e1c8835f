"""The fake GitHub API's users and organizations: the signed-in user, a user's or an organization's repositories
and members (in pages), and an organization invitation (answered from the request, nothing stored)."""

from __future__ import annotations

from weft.testing.fake_api import ApiReply, ApiRequest, require
from weft.testing.saas._github_common import OWNER, TIME, authorized, fields, not_found, owner_of, page, validation
from weft.testing.saas._github_data import REPOS, USERS, repo


def me(request: ApiRequest) -> ApiReply:
    authorized(request)
    return ApiReply(body={**USERS["weft-bot"], "name": "Weft Bot"})


def user_repos(request: ApiRequest) -> ApiReply:
    authorized(request)
    owner = owner_of(request)
    require(owner in USERS or owner == OWNER, not_found())
    return page(request, [repo(r["name"], n + 1, owner) for n, r in enumerate(REPOS)])


def org_members(request: ApiRequest) -> ApiReply:
    authorized(request)
    require(owner_of(request) == OWNER, not_found())
    return page(request, list(USERS.values()))


def invite(request: ApiRequest) -> ApiReply:
    authorized(request)
    require(request.params["owner"] == OWNER, not_found())
    email = fields(request).get("email")
    require(isinstance(email, str) and "@" in email, validation("OrganizationInvitation", "email"))
    return ApiReply(status=201, body={"id": 4401, "login": None, "email": email, "role": "direct_member",
                                      "created_at": TIME, "inviter": USERS["weft-bot"]})  # fmt: skip
