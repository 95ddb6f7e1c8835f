"""The auth use cases: n8n's owner-setup rules and messages, the login rate limit, expiring API keys."""

from __future__ import annotations

import time

import pytest

from weft.db import Store
from weft.services.auth import AuthError, AuthService, RateLimiter, check_password, hash_password

OWNER = {"email": "ada@example.com", "first_name": "Ada", "last_name": "Owner"}


@pytest.mark.parametrize(
    ("password", "message"),
    [
        ("Short1", "Password must be 8 to 64 characters long."),
        ("no-digits-Here", "Password must contain at least 1 number."),
        ("lower-case-42", "Password must contain at least 1 uppercase letter."),
    ],
)
def test_owner_passwords_follow_n8n_rules(store: Store, password: str, message: str) -> None:
    with pytest.raises(AuthError) as refused:
        AuthService(store.users).setup_owner(**OWNER, password=password)
    assert (refused.value.status, refused.value.message) == (400, message)
    assert store.users.owner() is None


def test_setup_then_login(store: Store) -> None:
    auth = AuthService(store.users)
    first = auth.setup_owner(**OWNER, password="Passw0rd-long")
    assert auth.session_user(first.token) == first.user
    again = auth.login("ADA@example.com", "Passw0rd-long")
    assert again.token != first.token and auth.session_user(again.token) == first.user
    auth.logout(again.token)
    assert auth.session_user(again.token) is None and auth.session_user(first.token) == first.user


def test_the_rate_limit_is_per_key_and_window() -> None:
    limiter = RateLimiter(limit=2, window=60.0)
    assert [limiter.hit("a"), limiter.hit("a"), limiter.hit("a"), limiter.hit("b")] == [True, True, False, True]


def test_bcrypt_hashes_check_in_constant_time_and_refuse_missing_hashes() -> None:
    hashed = hash_password("Passw0rd-long")
    assert hashed.startswith("$2b$10$") and check_password("Passw0rd-long", hashed)
    assert not check_password("wrong", hashed) and not check_password("Passw0rd-long", None)


def test_api_keys_expire_and_need_known_scopes(store: Store) -> None:
    auth = AuthService(store.users)
    owner = auth.setup_owner(**OWNER, password="Passw0rd-long").user
    _, live = auth.create_api_key(owner, label="live", scopes=["workflow:read"], expires_at=int(time.time()) + 60)
    _, old = auth.create_api_key(owner, label="old", scopes=["workflow:read"], expires_at=int(time.time()) - 1)
    assert auth.api_key_user(live) is not None and auth.api_key_user(old) is None
    with pytest.raises(AuthError, match="Invalid scopes for user role"):
        auth.create_api_key(owner, label="x", scopes=["everything:now"], expires_at=None)
