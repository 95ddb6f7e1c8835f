"""``/rest/owner/setup``, ``/rest/login``, ``/rest/logout`` and ``/rest/api-keys``: n8n's paths, bodies and answers."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request, Response
from pydantic import BaseModel, Field

from weft.db.users import StoredUser
from weft.server.deps import InstanceDep
from weft.server.http import caller
from weft.services.auth import API_KEY_SCOPES, COOKIE_NAME, AuthError, Login

router = APIRouter(tags=["users"])


class OwnerSetup(BaseModel):
    email: str
    firstName: str
    lastName: str
    password: str


class LoginBody(BaseModel):
    emailOrLdapLoginId: str | None = None
    email: str | None = None
    """The name older n8n versions used."""
    password: str


class ApiKeyCreate(BaseModel):
    label: str
    scopes: list[str] = Field(default_factory=list)
    expiresAt: int | None = None
    """Unix seconds; ``None`` never expires."""


class ApiKeyUpdate(BaseModel):
    label: str
    scopes: list[str] = Field(default_factory=list)


def current_user(request: Request) -> StoredUser:
    user: StoredUser | None = getattr(request.state, "user", None)
    if user is None:  # the security middleware lets no request through without one
        raise AuthError(401, "Unauthorized")
    return user


UserDep = Annotated[StoredUser, Depends(current_user)]


def _set_cookie(request: Request, response: Response, login: Login) -> None:
    instance = request.app.state.instance
    response.set_cookie(
        COOKIE_NAME,
        login.token,
        max_age=login.max_age,
        expires=login.max_age,
        path="/",
        httponly=True,
        samesite="lax",
        secure=instance.settings.secure_cookie,
    )


@router.post("/owner/setup", summary="Set up the instance owner (once; again after user-management:reset)")
async def setup_owner(instance: InstanceDep, request: Request, response: Response, body: OwnerSetup) -> dict[str, Any]:
    login = await instance.runner.db(
        instance.auth.setup_owner,
        email=body.email,
        first_name=body.firstName,
        last_name=body.lastName,
        password=body.password,
    )
    _set_cookie(request, response, login)
    return {"data": login.user.to_json()}


@router.post("/login", summary="Log in: sets the n8n-auth session cookie")
async def login(instance: InstanceDep, request: Request, response: Response, body: LoginBody) -> dict[str, Any]:
    email = body.emailOrLdapLoginId or body.email or ""
    address = caller(request)[0]  # the connection's address, or X-Forwarded-For's by WEFT_PROXY_HOPS
    done = await instance.runner.db(instance.auth.login, email, body.password, address=address)
    _set_cookie(request, response, done)
    return {"data": done.user.to_json()}


@router.get("/login", summary="The logged-in user")
async def current(user: UserDep) -> dict[str, Any]:
    return {"data": user.to_json()}


@router.post("/logout", summary="Log out: ends the session")
async def logout(instance: InstanceDep, request: Request, response: Response) -> dict[str, Any]:
    await instance.runner.db(instance.auth.logout, getattr(request.state, "session_token", None))
    response.delete_cookie(COOKIE_NAME, path="/", httponly=True, samesite="lax")
    return {"data": {"loggedOut": True}}


@router.get("/api-keys/scopes", summary="The scopes an API key may have")
async def api_key_scopes(_: UserDep) -> dict[str, Any]:
    return {"data": list(API_KEY_SCOPES)}


@router.get("/api-keys", summary="The user's API keys (redacted)")
async def list_api_keys(instance: InstanceDep, user: UserDep) -> dict[str, Any]:
    keys = await instance.runner.db(instance.store.users.api_keys, user.id)
    return {"data": [k.to_json() for k in keys]}


@router.post("/api-keys", summary="Create an API key: the key is in rawApiKey, shown this once")
async def create_api_key(instance: InstanceDep, user: UserDep, body: ApiKeyCreate) -> dict[str, Any]:
    stored, key = await instance.runner.db(
        instance.auth.create_api_key, user, label=body.label, scopes=body.scopes, expires_at=body.expiresAt
    )
    return {"data": {**stored.to_json(), "rawApiKey": key, "expiresAt": body.expiresAt}}


@router.patch("/api-keys/{key_id}", summary="Rename an API key or change its scopes")
async def update_api_key(instance: InstanceDep, user: UserDep, key_id: str, body: ApiKeyUpdate) -> dict[str, Any]:
    await instance.runner.db(instance.auth.update_api_key, user, key_id, label=body.label, scopes=body.scopes)
    return {"data": {"success": True}}


@router.delete("/api-keys/{key_id}", summary="Revoke an API key")
async def delete_api_key(instance: InstanceDep, user: UserDep, key_id: str) -> dict[str, Any]:
    await instance.runner.db(instance.auth.delete_api_key, user, key_id)
    return {"data": {"success": True}}
