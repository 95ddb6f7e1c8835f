"""A fake Google OAuth 2.0 token endpoint (``https://oauth2.googleapis.com/token``), shared by the fakes of the
Google services (Sheets, Gmail, Drive, Calendar, Docs).

It answers as Google does (form-encoded requests, JSON answers and errors ``{"error", "error_description"}``):

- ``grant_type=refresh_token``: the client (``client_id``/``client_secret`` in a Basic header or in the body) must
  be one of :data:`CLIENTS`, the refresh token one of :data:`REFRESH_TOKENS`; the answer carries the access token
  listed for it (no new refresh token, as Google). An unknown refresh token answers ``400 invalid_grant``.
- ``grant_type=client_credentials``: a client of :data:`CLIENTS` gets :data:`CLIENT_CREDENTIALS_TOKEN`.
- ``grant_type=urn:ietf:params:oauth:grant-type:jwt-bearer`` (a service account, ``googleApi``): the RS256 JWT
  ``assertion`` must verify with the public key of :data:`SERVICE_ACCOUNTS` for its ``iss``, with ``aud`` the
  token URL and an ``exp`` after ``iat``; the answer is :data:`SERVICE_ACCOUNT_TOKEN`. :data:`SERVICE_ACCOUNT_KEY`
  is the test key pair's private key (put it in a ``googleApi`` credential).

To add a client for another Google service's fake: add ``"<client id>": "<secret>"`` to :data:`CLIENTS` and
``"<refresh token>": "<access token>"`` to :data:`REFRESH_TOKENS`, then accept that access token in your fake
(:func:`authorized` with your set of tokens). Nothing here keeps state: every answer is computed from the request.
"""

from __future__ import annotations

import base64
from collections.abc import Collection
from typing import Any

from weft.testing.fake_api import ApiReply, ApiRequest, FakeApiServer, json_error, require

HOST = "oauth2.googleapis.com"
TOKEN_URL = f"https://{HOST}/token"

#: OAuth clients the token endpoint knows: client id → client secret.
CLIENTS: dict[str, str] = {
    "sheets-client-id.apps.googleusercontent.com": "sheets-client-secret",
}
#: Refresh tokens → the access token a refresh answers.
REFRESH_TOKENS: dict[str, str] = {
    "sheets-refresh-token": "sheets-access-token",
}
CLIENT_CREDENTIALS_TOKEN = "google-client-credentials-token"
SERVICE_ACCOUNT_TOKEN = "google-service-account-token"
SERVICE_ACCOUNT_EMAIL = "weft-fake@weft-test.iam.gserviceaccount.com"

#: The private key of the test service account (a key pair made for these tests only).
SERVICE_ACCOUNT_KEY = """-----BEGIN PRIVATE KEY-----
MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQDU4m2TxAQf2sEy
YUY7uOemATgX6gS9p4l1M+vpzWOmWHblq2HQT2OLuLR1muBdBXdA86lwxJihzK5q
NVPzmRTEf8Ge6SKQ1KT9MXDqQ4rNxeP/8rYbu67TwoOlHre326gaCG9pAPoHbsX9
TVY5JByp9my6Xt6fOzZGVtH2LC8c2vHWYQBU927g1F2Bi3I+6+1GRKB6NWaX9F0C
Zo//vTSyxoFVQfRvxGYMFX3CfUYd/EA8HXqzcMVeK5o7yaEkAiT7B+s9Bh+/VyUQ
rZcfUhqI1gKucCFRL64H7nAc6Hle3FMUUN10kWYj6LXyN9etJ8F/XnI2duPaWGqt
RrlnUp6NAgMBAAECggEADe4Js4XmVdtE5wdccXimQm4z/cSaA3rx+1GmxIlkVYnW
Wy2Sse8amWrq9q29XqOGlnZwhj4m//daYP1qUoyYF5+Fy4sqcDBUjMjDwGB5CwFB
ll7gXFeJ7LX+p+Wm/zMyqw7APi5f2JqpU+t6konyt4sLZEqO5fvEOmgLRxYZuG6F
7tZ+vJ/qtWhOMgdujm8l/ODK8ypsETcInZM1c77wSdNzrrtht+OCDkmTXkAfd2MC
312wyC+QsBHSQzpvMVKLu98/rPMVgLRTVqhjMDNlCf5svhYjM2nRnHBojZBSiWHO
aMYSkhzyAjmZRJITaNz8IpPv3BsTLxQKwUxwgpndIQKBgQDzOYWgCa9F0SU2O1KP
Sf1eYuxSoAq55LHH/TA+GnruE9Kv1XvlNzJSZf1sLHpvqDngTyaN1Gp0EZaohh87
NfHLy0fp+3xbi96+Ifn4NaZQV58gkDcK+YOa6c8y7QZPPp6MWDAUlFqQt55vVqHO
qQQpI95DpOLCfufcAul77cEpuQKBgQDgEPEXZaYVXKHxvv3FiMJHF1BvNJC48Jo/
QmRdTOOiaK7/UL+lH5+rydrCvKAizT8Q4meGTKrFIgHpMJ6SrWNS2oYbJxEm2lA5
ObyvGGYW4Scy4JVNQCaC7zL6r7jEzFjFkOYP7IVO0Pt8gQAeIfGrNTsRDlQ8xM+f
4K0+zkF1dQKBgFSpRRX7yQKoVieWZppxyru7+z6XbqReMnPGcbBsTzXnuIJz8PhM
SjvcPGYW5VdQWzT02BquQY+9P4/Rf7WAhXXGgHW1kAfdm97avMPlCMsWdNFE4aP0
ThbyI6k6T+PtjAqV98ZyDUQqZf+jTBc/Ra98SLWLA1NoERTH/rWggIghAoGBAN4y
LsMC/EYmzDmNKt8elXomNo9w0yty/aNJ1XlobDx8Dz4E92dqCs8ypwuCPlMEskuu
GPdnQ9mltbtniXjvFJXvOhnnDe03hWKaTPBeA68gq9yaNbSbrxUc27MZWuNduZKB
9INKC5BzUVDQJCu9gYhEi0SIryRsD3D+Pw8PPn6ZAoGAaZWtV+k8u42Z+3O32n0t
1ajG7bDlelADMrWfbUZZ5WVuVD7zNXpoIrqnoDuT1Qdt3dt5Lcs23AR2By1HZX5D
qCVs/Xnxr/Tvjipv4q9FbP+fVoUI6T98VWWaZksV+ayrpIx/ohpGJGsc2wRNWbrg
58bokxtGfMWYV4LUd14/vMI=
-----END PRIVATE KEY-----"""
_SERVICE_ACCOUNT_PUBLIC_KEY = """-----BEGIN PUBLIC KEY-----
MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA1OJtk8QEH9rBMmFGO7jn
pgE4F+oEvaeJdTPr6c1jplh25ath0E9ji7i0dZrgXQV3QPOpcMSYocyuajVT85kU
xH/BnukikNSk/TFw6kOKzcXj//K2G7uu08KDpR63t9uoGghvaQD6B27F/U1WOSQc
qfZsul7enzs2RlbR9iwvHNrx1mEAVPdu4NRdgYtyPuvtRkSgejVml/RdAmaP/700
ssaBVUH0b8RmDBV9wn1GHfxAPB16s3DFXiuaO8mhJAIk+wfrPQYfv1clEK2XH1Ia
iNYCrnAhUS+uB+5wHOh5XtxTFFDddJFmI+i18jfXrSfBf15yNnbj2lhqrUa5Z1Ke
jQIDAQAB
-----END PUBLIC KEY-----"""
#: Service account emails → the public key their JWT assertions verify with.
SERVICE_ACCOUNTS: dict[str, str] = {SERVICE_ACCOUNT_EMAIL: _SERVICE_ACCOUNT_PUBLIC_KEY}


def google_error(status: int, message: str, code: str, **headers: str) -> ApiReply:
    """Google APIs' error body: ``{"error": {"code", "message", "status"}}``."""
    return json_error(status, {"error": {"code": status, "message": message, "status": code}}, **headers)


UNAUTHENTICATED = (
    "Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid "
    "authentication credential. See https://developers.google.com/identity/sign-in/web/devconsole-project."
)


def authorized(request: ApiRequest, tokens: Collection[str]) -> None:
    """Refuse (401 ``UNAUTHENTICATED``, as Google) a request whose bearer token is not one of ``tokens``."""
    header = request.headers.get("authorization") or ""
    token = header[len("Bearer ") :] if header.startswith("Bearer ") else ""
    require(token in tokens, google_error(401, UNAUTHENTICATED, "UNAUTHENTICATED"))


def _token_error(status: int, error: str, description: str) -> ApiReply:
    return json_error(status, {"error": error, "error_description": description})


def _client(request: ApiRequest, form: dict[str, Any]) -> str:
    """The authenticated client id (Basic header, else the body), or a 401 ``invalid_client``."""
    header = request.headers.get("authorization") or ""
    client_id, secret = str(form.get("client_id") or ""), str(form.get("client_secret") or "")
    if header.startswith("Basic "):
        try:
            client_id, _, secret = base64.b64decode(header[6:]).decode().partition(":")
        except ValueError:
            client_id = ""
    known = client_id in CLIENTS and CLIENTS[client_id] == secret
    require(known, _token_error(401, "invalid_client", "The OAuth client was not found."))
    return client_id


def _refresh(request: ApiRequest, form: dict[str, Any]) -> ApiReply:
    _client(request, form)
    access = REFRESH_TOKENS.get(str(form.get("refresh_token") or ""))
    require(access is not None, _token_error(400, "invalid_grant", "Token has been expired or revoked."))
    scope = "https://www.googleapis.com/auth/spreadsheets https://www.googleapis.com/auth/drive.file"
    return ApiReply(body={"access_token": access, "expires_in": 3599, "scope": scope, "token_type": "Bearer"})


def _jwt_bearer(form: dict[str, Any]) -> ApiReply:
    import jwt

    assertion = str(form.get("assertion") or "")
    invalid = _token_error(400, "invalid_grant", "Invalid JWT Signature.")
    try:
        issuer = str(jwt.decode(assertion, options={"verify_signature": False}).get("iss") or "")
    except jwt.PyJWTError:
        require(False, _token_error(400, "invalid_grant", "Invalid JWT: Token must be a short-lived token"))
    key = SERVICE_ACCOUNTS.get(issuer, "")
    require(bool(key), _token_error(401, "invalid_client", "The OAuth client was not found."))
    try:
        claims = jwt.decode(assertion, key, algorithms=["RS256"], audience=TOKEN_URL, options={"verify_exp": False})
    except jwt.PyJWTError:
        require(False, invalid)
    require(int(claims.get("exp", 0)) > int(claims.get("iat", 0)), invalid)
    require(
        bool(claims.get("scope")),
        _token_error(400, "invalid_scope", "Invalid OAuth scope or ID token audience provided."),
    )
    return ApiReply(body={"access_token": SERVICE_ACCOUNT_TOKEN, "expires_in": 3599, "token_type": "Bearer"})


def token(request: ApiRequest) -> ApiReply:
    form = request.body if isinstance(request.body, dict) else {}
    grant = str(form.get("grant_type") or "")
    if grant == "refresh_token":
        return _refresh(request, form)
    if grant == "client_credentials":
        _client(request, form)
        return ApiReply(body={"access_token": CLIENT_CREDENTIALS_TOKEN, "expires_in": 3599, "token_type": "Bearer"})
    if grant == "urn:ietf:params:oauth:grant-type:jwt-bearer":
        return _jwt_bearer(form)
    return _token_error(400, "unsupported_grant_type", f"Invalid grant_type: {grant}")


def install(server: FakeApiServer) -> None:
    server.route("POST", r"/token", token, host=HOST)


__all__ = [
    "CLIENTS",
    "REFRESH_TOKENS",
    "SERVICE_ACCOUNTS",
    "SERVICE_ACCOUNT_KEY",
    "SERVICE_ACCOUNT_TOKEN",
    "TOKEN_URL",
    "authorized",
    "google_error",
    "install",
]
