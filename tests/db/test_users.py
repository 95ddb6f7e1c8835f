"""Users, sessions, API keys and tags on every backend (SQLite, and PostgreSQL with WEFT_TEST_POSTGRES=1)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from sqlalchemy import text

from weft.db.orm import utcnow
from weft.db.store import Store
from weft.db.tags import TagConflictError


def test_the_owner_and_its_sessions(store: Store) -> None:
    assert store.users.owner() is None
    owner = store.users.set_owner(email="Ada@Example.com", first_name="Ada", last_name="L", password_hash="$2b$h")
    assert store.users.owner() == owner and store.users.by_email("ada@example.com") == owner
    store.users.create_session(owner.id, "live", utcnow() + timedelta(hours=1))
    store.users.create_session(owner.id, "old", utcnow() - timedelta(seconds=1))
    assert store.users.session_user("live") == owner
    assert store.users.session_user("old") is None and store.users.session_user("other") is None
    assert store.users.delete_expired_sessions() == 1
    store.users.delete_session("live")
    assert store.users.session_user("live") is None


def test_api_keys_are_stored_as_digests(store: Store) -> None:
    owner = store.users.set_owner(email="a@b.co", first_name="A", last_name="B", password_hash="$2b$h")
    key = store.users.create_api_key(
        owner.id,
        key="weft_api_secret-1234",
        label="ci",
        scopes=["workflow:read"],
        audience="public-api",
        expires_at=None,
    )
    found = store.users.api_key_owner("weft_api_secret-1234")
    assert found is not None and found[0] == owner and found[1].id == key.id
    assert key.to_json()["apiKey"] == "******1234"
    with store.db.sessions() as session:
        stored = session.execute(text("SELECT api_key FROM user_api_keys")).scalar_one()
    assert "secret" not in stored and len(stored) == 64
    assert store.users.update_api_key(owner.id, key.id, label="renamed", scopes=["workflow:list"])
    assert store.users.api_keys(owner.id)[0].scopes == ["workflow:list"]
    assert store.users.delete_api_key(owner.id, key.id) and store.users.api_key_owner("weft_api_secret-1234") is None


def test_reset_removes_users_sessions_and_keys(store: Store) -> None:
    owner = store.users.set_owner(email="a@b.co", first_name="A", last_name="B", password_hash="$2b$h")
    store.users.create_session(owner.id, "s", utcnow() + timedelta(hours=1))
    store.users.create_api_key(
        owner.id, key="k" * 20, label="x", scopes=["tag:list"], audience="public-api", expires_at=None
    )
    store.users.reset()
    assert store.users.owner() is None and store.users.session_user("s") is None
    assert store.users.api_key_owner("k" * 20) is None


def test_tags_and_workflow_tags(store: Store, make_workflow: Any) -> None:
    tag = store.tags.create("prod")
    with pytest.raises(TagConflictError):
        store.tags.create("prod")
    workflow = store.workflows.create(make_workflow())
    assert [t.name for t in store.tags.set_workflow_tags(workflow.id, [tag.id])] == ["prod"]
    assert store.tags.update(tag.id, "live").name == "live"
    assert [t.name for t in store.tags.of_workflow(workflow.id)] == ["live"]
    assert store.tags.delete(tag.id) is not None and store.tags.of_workflow(workflow.id) == []
