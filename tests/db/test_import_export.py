"""The service functions behind ``weft import:workflow``, ``export:workflow`` and ``import:credentials``."""

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from weft.db import Store
from weft.errors import ConfigurationError, WorkflowFileError
from weft.services import (
    export_workflow,
    import_credentials_file,
    import_workflow_file,
    instance_cipher,
    open_store,
)
from weft.settings import Settings

from .conftest import EXAMPLES, workflow_json

W1 = EXAMPLES / "webhook_set_respond.json"


@pytest.fixture
def settings(db_url: str, tmp_path: Path) -> Settings:
    return Settings(user_folder=tmp_path / "user", database_url=db_url)


@pytest.fixture
def opened(settings: Settings) -> Iterator[Store]:
    store = open_store(settings)
    yield store
    store.close()


def test_workflow_file_round_trips(opened: Store, tmp_path: Path) -> None:
    [stored] = import_workflow_file(opened.workflows, W1)
    assert stored.id == "bnchW1webhook001" and stored.active is False
    out = tmp_path / "out" / "w1.json"
    export_workflow(opened.workflows, stored.id, out)
    assert json.loads(out.read_text()) == json.loads(W1.read_text())


def test_import_with_activate_and_export_all(opened: Store, tmp_path: Path) -> None:
    many = tmp_path / "many.json"
    many.write_text(json.dumps([workflow_json("A", id="a"), workflow_json("B", id="b")]))
    stored = import_workflow_file(opened.workflows, many, activate=True)
    assert [(w.id, w.active) for w in stored] == [("a", True), ("b", True)]
    exported = export_workflow(opened.workflows)
    assert isinstance(exported, list) and [w["id"] for w in exported] == ["a", "b"]


def test_import_a_folder(opened: Store, tmp_path: Path) -> None:
    folder = tmp_path / "folder"
    folder.mkdir()
    for name in ("x", "y"):
        (folder / f"{name}.json").write_text(json.dumps(workflow_json(name, id=name)))
    assert [w.id for w in import_workflow_file(opened.workflows, folder)] == ["x", "y"]


def test_a_bad_file_imports_nothing(opened: Store, tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps([workflow_json("ok", id="ok"), {"name": "not a workflow"}]))
    with pytest.raises(WorkflowFileError, match="item 1 is not a workflow"):
        import_workflow_file(opened.workflows, bad)
    assert opened.workflows.list() == []
    (tmp_path / "broken.json").write_text("{")
    with pytest.raises(WorkflowFileError, match="not valid JSON"):
        import_workflow_file(opened.workflows, tmp_path / "broken.json")
    with pytest.raises(WorkflowFileError, match="Cannot read"):
        import_workflow_file(opened.workflows, tmp_path / "missing.json")


def test_import_credentials_file(opened: Store, settings: Settings, tmp_path: Path) -> None:
    source = tmp_path / "creds.json"
    source.write_text(json.dumps([{"id": "c1", "name": "OpenAI", "type": "openAiApi", "data": {"apiKey": "sk"}}]))
    [info] = import_credentials_file(opened.credentials, source)
    assert info.id == "c1"
    assert (settings.user_folder / "config").exists()
    # Another process (the server, the CLI) opening the same instance reads it back.
    again = open_store(settings)
    try:
        assert again.credentials.resolve_credentials("Model", "openAiApi", {"id": "c1"}) == {"apiKey": "sk"}
    finally:
        again.close()


def test_import_credentials_file_errors(opened: Store, tmp_path: Path) -> None:
    (tmp_path / "bad.json").write_text("[1,")
    with pytest.raises(ConfigurationError, match="not valid JSON"):
        import_credentials_file(opened.credentials, tmp_path / "bad.json")


def test_instance_cipher_uses_the_env_key(tmp_path: Path) -> None:
    a = instance_cipher(Settings(user_folder=tmp_path, encryption_key="k"))
    b = instance_cipher(Settings(user_folder=tmp_path / "other", encryption_key="k"))
    assert b.decrypt(a.encrypt({"x": 1})) == {"x": 1}
