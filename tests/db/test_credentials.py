import json
import os
import stat
from pathlib import Path

import pytest
from sqlalchemy import text

from weft.db import Cipher, CredentialsRepository, Database, DecryptionError, Store, load_encryption_key
from weft.errors import ConfigurationError

SECRET = {"apiKey": "sk-very-secret", "url": "http://127.0.0.1:18080/v1"}


def test_create_get_update_delete(store: Store) -> None:
    info = store.credentials.create("OpenAI", "openAiApi", SECRET)
    got = store.credentials.get(info.id)
    assert got is not None and got.data == SECRET and got.name == "OpenAI"
    store.credentials.update(info.id, name="OpenAI 2", data={"apiKey": "new"})
    assert store.credentials.get(info.id).data == {"apiKey": "new"}  # type: ignore[union-attr]
    assert store.credentials.delete(info.id) is True
    assert store.credentials.get(info.id) is None
    assert store.credentials.delete(info.id) is False


def test_data_is_not_stored_in_plaintext(store: Store) -> None:
    info = store.credentials.create("OpenAI", "openAiApi", SECRET)
    with store.db.engine.connect() as connection:
        raw = connection.execute(text("SELECT data FROM credentials_entity WHERE id = :id"), {"id": info.id}).scalar()
    assert isinstance(raw, str) and "sk-very-secret" not in raw and "apiKey" not in raw


def test_a_wrong_key_is_a_clear_error(store: Store) -> None:
    info = store.credentials.create("OpenAI", "openAiApi", SECRET)
    other = CredentialsRepository(store.db, Cipher("another key"))
    with pytest.raises(DecryptionError, match=r"credential 'OpenAI'.*different key.*WEFT_ENCRYPTION_KEY"):
        other.get(info.id)


def test_list_never_returns_data(store: Store) -> None:
    store.credentials.create("B", "httpHeaderAuth", {"name": "X-Key", "value": "v"})
    store.credentials.create("A", "openAiApi", SECRET)
    listed = store.credentials.list()
    assert [c.name for c in listed] == ["B", "A"]
    assert all(not hasattr(c, "data") for c in listed)
    assert "data" not in listed[0].to_json()
    assert [c.name for c in store.credentials.list(type="openAiApi")] == ["A"]


def test_find_by_id_or_name(store: Store) -> None:
    info = store.credentials.create("Main", "openAiApi", SECRET, id="cred1")
    assert store.credentials.find("cred1", "openAiApi").id == info.id  # type: ignore[union-attr]
    assert store.credentials.find("Main", "openAiApi").id == info.id  # type: ignore[union-attr]
    assert store.credentials.find("Main", "anthropicApi") is None


def test_resolve_credentials(store: Store) -> None:
    store.credentials.create("Main", "openAiApi", SECRET, id="cred1")
    resolve = store.credentials.resolve_credentials
    assert resolve("Model", "openAiApi", {"id": "cred1", "name": "Main"}) == SECRET
    # Exported from another instance: the id differs, the name and type match.
    assert resolve("Model", "openAiApi", {"id": "elsewhere", "name": "Main"}) == SECRET
    with pytest.raises(
        ConfigurationError, match=r"Node 'Model' needs a credential of type 'openAiApi', but none is set"
    ):
        resolve("Model", "openAiApi", None)
    with pytest.raises(
        ConfigurationError, match=r"none with id 'nope' or name 'Other' exists.*weft import:credentials"
    ):
        resolve("Model", "openAiApi", {"id": "nope", "name": "Other"})
    with pytest.raises(ConfigurationError, match=r"'cred1' \('Main'\) is of type 'openAiApi'"):
        resolve("Claude", "anthropicApi", {"id": "cred1"})


def test_import_credentials_upserts_by_id(store: Store) -> None:
    items = [
        {"id": "c1", "name": "OpenAI", "type": "openAiApi", "data": SECRET, "isManaged": False},
        {"name": "No id", "type": "httpHeaderAuth", "data": {"name": "a", "value": "b"}},
    ]
    first = store.credentials.import_credentials(items)
    assert first[0].id == "c1" and len(first[1].id) == 16
    store.credentials.import_credentials(
        [{"id": "c1", "name": "Renamed", "type": "openAiApi", "data": {"apiKey": "2"}}]
    )
    assert store.credentials.get("c1").data == {"apiKey": "2"}  # type: ignore[union-attr]
    assert len(store.credentials.list()) == 2


@pytest.mark.parametrize(
    ("item", "message"),
    [
        ({"id": "x", "name": "E", "type": "openAiApi", "data": "U2FsdGVkX1..."}, "--decrypted"),
        ({"name": "E", "data": {}}, "no 'type'"),
        ("not an object", "not an object"),
    ],
)
def test_import_credentials_refuses_bad_items(store: Store, item: object, message: str) -> None:
    with pytest.raises(ConfigurationError, match=message):
        store.credentials.import_credentials([item])
    assert store.credentials.list() == []


def test_key_is_generated_once_with_mode_0600(tmp_path: Path) -> None:
    key = load_encryption_key(tmp_path / "user")
    config = tmp_path / "user" / "config"
    assert json.loads(config.read_text()) == {"encryptionKey": key}
    assert stat.S_IMODE(os.stat(config).st_mode) == 0o600
    assert load_encryption_key(tmp_path / "user") == key
    assert load_encryption_key(tmp_path / "user", key) == key


def test_env_key_must_match_the_config_file(tmp_path: Path) -> None:
    assert load_encryption_key(tmp_path, "from-env") == "from-env"
    assert not (tmp_path / "config").exists()
    load_encryption_key(tmp_path)
    with pytest.raises(ConfigurationError, match="Mismatching encryption keys"):
        load_encryption_key(tmp_path, "from-env")


def test_a_broken_config_file_is_a_clear_error(tmp_path: Path) -> None:
    (tmp_path / "config").write_text("{}")
    with pytest.raises(ConfigurationError, match="has no 'encryptionKey'"):
        load_encryption_key(tmp_path)


def test_credentials_survive_reopening_with_the_same_key(db: Database, tmp_path: Path) -> None:
    key = load_encryption_key(tmp_path)
    CredentialsRepository(db, Cipher(key)).create("C", "openAiApi", SECRET, id="c")
    assert CredentialsRepository(db, Cipher(load_encryption_key(tmp_path))).get("c").data == SECRET  # type: ignore[union-attr]
