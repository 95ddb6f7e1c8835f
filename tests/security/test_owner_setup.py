"""``weft start`` requires an owner: a fresh instance says how to set it up; ``weft user-management:reset``
removes the owner, its sessions and keys, so the owner must be set up again (n8n's command)."""

from __future__ import annotations

import logging
from datetime import timedelta
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from weft.cli import main
from weft.db.orm import utcnow
from weft.server import create_app
from weft.services.import_export import open_store
from weft.settings import Settings

from .conftest import OWNER


def test_a_fresh_server_says_how_to_set_up_the_owner(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    settings = Settings(user_folder=tmp_path, encryption_key="k", public_url="http://127.0.0.1:5678/")
    with caplog.at_level(logging.WARNING, logger="weft.server"), TestClient(create_app(settings)):
        pass
    assert "No owner account yet" in caplog.text and "/rest/owner/setup" in caplog.text


def test_user_management_reset_removes_the_owner(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("WEFT_USER_FOLDER", str(tmp_path))
    monkeypatch.delenv("WEFT_DATABASE_URL", raising=False)
    store = open_store(Settings.from_env())
    try:
        user = store.users.set_owner(email=OWNER["email"], first_name="A", last_name="B", password_hash="$2b$x")
        store.users.create_session(user.id, "token", utcnow() + timedelta(hours=1))
        assert main(["user-management:reset"]) == 0
        assert "Successfully reset the database to default user state." in capsys.readouterr().out
        assert store.users.owner() is None and store.users.session_user("token") is None
    finally:
        store.close()
