"""Users and API keys as n8n does them: owner setup, login with a session cookie, scoped public API keys.

* The owner is set up once (``POST /rest/owner/setup``, or again after ``weft user-management:reset``).
* ``POST /rest/login`` checks the password (bcrypt) and opens a session: a random token in the ``n8n-auth``
  cookie, stored as its SHA-256 with an expiry (``WEFT_SESSION_DURATION_HOURS``, 168 as n8n's JWT).
* Public API keys are random, shown once, stored as their SHA-256, scoped, and may expire.
* Logins are rate-limited as n8n's: 5 a minute per email, 1,000 in 5 minutes per client address.

Messages and status codes are n8n 2.8.4's (``tests/security/n8n_answers.json``).
"""

from __future__ import annotations

import re
import secrets
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from datetime import timedelta

from weft.db.orm import utcnow
from weft.db.users import StoredApiKey, StoredUser, UserRepository
from weft.errors import WeftError

#: The cookie n8n's editor uses.
COOKIE_NAME = "n8n-auth"
API_KEY_HEADER = "x-n8n-api-key"
API_KEY_PREFIX = "weft_api_"
AUDIENCE = "public-api"
BCRYPT_ROUNDS = 10
WRONG_LOGIN = "Wrong username or password. Do you have caps lock on?"

#: n8n's owner scopes for API keys (``GET /rest/api-keys/scopes``), those Weft's public API checks.
API_KEY_SCOPES = (
    "credential:create",
    "credential:delete",
    "credential:list",
    "credential:update",
    "execution:delete",
    "execution:list",
    "execution:read",
    "execution:retry",
    "securityAudit:generate",
    "tag:create",
    "tag:delete",
    "tag:list",
    "tag:read",
    "tag:update",
    "workflow:activate",
    "workflow:create",
    "workflow:deactivate",
    "workflow:delete",
    "workflow:list",
    "workflow:read",
    "workflow:update",
    "workflowTags:list",
    "workflowTags:update",
)

_EMAIL = re.compile(r"^[^\s@]+@[^\s@]+\.[^\s@]+$")


class AuthError(WeftError):
    """An answer of the auth endpoints: ``status`` and n8n's message."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


def hash_password(password: str) -> str:
    import bcrypt

    return bcrypt.hashpw(password.encode("utf-8")[:72], bcrypt.gensalt(BCRYPT_ROUNDS)).decode("ascii")


def check_password(password: str, hashed: str | None) -> bool:
    """Whether ``password`` matches ``hashed`` (bcrypt, constant time); a missing hash still costs one check."""
    import bcrypt

    target = (hashed or _DUMMY_HASH).encode("ascii")
    try:
        matches = bcrypt.checkpw(password.encode("utf-8")[:72], target)
    except ValueError:
        return False
    return matches and hashed is not None


_DUMMY_HASH = "$2b$10$kpIZTTnVlgIcFo9d.M16z.EZGF8Cug.LpczD7KRRJ3VeRLveaLUGq"


def password_problem(password: str) -> str | None:
    """n8n's password rules (``passwordSchema``): the message of the first one broken, else ``None``."""
    if not 8 <= len(password) <= 64:
        return "Password must be 8 to 64 characters long."
    if not re.search(r"\d", password):
        return "Password must contain at least 1 number."
    if not re.search(r"[A-Z]", password):
        return "Password must contain at least 1 uppercase letter."
    return None


@dataclass
class RateLimiter:
    """At most ``limit`` hits per ``window`` seconds for each key (a sliding window, in this process)."""

    limit: int
    window: float
    _hits: dict[str, deque[float]] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def hit(self, key: str) -> bool:
        """Count a hit; whether it is still within the limit."""
        now = time.monotonic()
        with self._lock:
            hits = self._hits.setdefault(key, deque())
            while hits and hits[0] <= now - self.window:
                hits.popleft()
            if len(hits) >= self.limit:
                return False
            hits.append(now)
            if len(self._hits) > 10_000:  # forget idle keys
                for stale in [k for k, v in self._hits.items() if not v or v[-1] <= now - self.window]:
                    del self._hits[stale]
            return True


@dataclass(frozen=True, kw_only=True)
class Login:
    user: StoredUser
    token: str
    max_age: int
    """Seconds the cookie lives."""


class AuthService:
    """The use cases behind ``/rest/owner``, ``/rest/login``, ``/rest/logout`` and ``/rest/api-keys``.

    Synchronous (repository calls and bcrypt): the server runs these methods in a worker thread.
    """

    def __init__(self, users: UserRepository, *, session_hours: float = 168.0) -> None:
        self.users = users
        self.session_hours = session_hours
        self.per_email = RateLimiter(limit=5, window=60.0)
        self.per_address = RateLimiter(limit=1000, window=300.0)
        self._setup = threading.Lock()

    def owner_is_set_up(self) -> bool:
        return self.users.owner() is not None

    def setup_owner(self, *, email: str, first_name: str, last_name: str, password: str) -> Login:
        _check_email(email)
        problem = password_problem(password)
        if problem:
            raise AuthError(400, problem)
        if not first_name.strip() or len(first_name) > 32 or len(last_name) > 32:
            raise AuthError(400, "First and last name must be 1 to 32 characters long.")
        hashed = hash_password(password)
        with self._setup:  # two concurrent setups of this process: the first wins
            if self.users.owner() is not None:
                raise AuthError(400, "Instance owner already setup")
            user = self.users.set_owner(email=email, first_name=first_name, last_name=last_name, password_hash=hashed)
        return self._open_session(user)

    def login(self, email: str, password: str, *, address: str = "") -> Login:
        if not self.per_address.hit(address) or not self.per_email.hit(email.lower()):
            raise AuthError(429, "Too many requests")
        _check_email(email)
        user = self.users.by_email(email)
        usable = user is not None and not user.disabled
        if not check_password(password, user.password_hash if user is not None and usable else None):
            raise AuthError(401, WRONG_LOGIN)
        assert user is not None
        return self._open_session(user)

    def _open_session(self, user: StoredUser) -> Login:
        token = secrets.token_urlsafe(32)
        max_age = int(self.session_hours * 3600)
        self.users.create_session(user.id, token, utcnow() + timedelta(seconds=max_age))
        return Login(user=user, token=token, max_age=max_age)

    def session_user(self, token: str | None) -> StoredUser | None:
        if not token or len(token) > 256:
            return None
        return self.users.session_user(token)

    def logout(self, token: str | None) -> None:
        if token:
            self.users.delete_session(token)

    # -- API keys ---------------------------------------------------------------------------------------------

    def create_api_key(
        self, user: StoredUser, *, label: str, scopes: list[str], expires_at: int | None
    ) -> tuple[StoredApiKey, str]:
        """A new key for ``user``: the stored record and the key itself (shown this once)."""
        _check_scopes(scopes)
        if not label.strip() or len(label) > 100:
            raise AuthError(400, "The label must be 1 to 100 characters long.")
        key = API_KEY_PREFIX + secrets.token_urlsafe(32)
        stored = self.users.create_api_key(
            user.id, key=key, label=label, scopes=list(dict.fromkeys(scopes)), audience=AUDIENCE, expires_at=expires_at
        )
        return stored, key

    def update_api_key(self, user: StoredUser, key_id: str, *, label: str, scopes: list[str]) -> None:
        _check_scopes(scopes)
        if not self.users.update_api_key(user.id, key_id, label=label, scopes=list(dict.fromkeys(scopes))):
            raise AuthError(404, "API Key not found")

    def delete_api_key(self, user: StoredUser, key_id: str) -> None:
        if not self.users.delete_api_key(user.id, key_id):
            raise AuthError(404, "API Key not found")

    def api_key_user(self, key: str) -> tuple[StoredUser, StoredApiKey] | None:
        """The user and record of a valid, unexpired ``key``."""
        if not key or len(key) > 256:
            return None
        found = self.users.api_key_owner(key)
        if found is None:
            return None
        expires = found[1].expires_at
        if expires is not None and expires <= time.time():
            return None
        return found


def _check_email(email: str) -> None:
    if not isinstance(email, str) or len(email) > 255 or not _EMAIL.match(email):
        raise AuthError(400, "Invalid email address")


def _check_scopes(scopes: list[str]) -> None:
    if not scopes:
        raise AuthError(400, "Array must contain at least 1 element(s)")
    unknown = [s for s in scopes if s not in API_KEY_SCOPES]
    if unknown:
        raise AuthError(400, "Invalid scopes for user role")


__all__ = [
    "API_KEY_HEADER",
    "API_KEY_SCOPES",
    "COOKIE_NAME",
    "AuthError",
    "AuthService",
    "Login",
    "RateLimiter",
    "check_password",
    "hash_password",
    "password_problem",
]
