"""``weft export:credentials``: n8n's entity JSON, encrypted by default, its flags and messages, against a real
SQLite instance through the CLI's entry point."""

from __future__ import annotations

import json
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest

from weft.cli import main
from weft.db.store import Store
from weft.services.import_export import instance_cipher, open_store
from weft.settings import Settings

SECRET = "s3cret-value-that-must-not-leak"


@pytest.fixture
def store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Store]:
    monkeypatch.setenv("WEFT_USER_FOLDER", str(tmp_path / "home"))
    monkeypatch.delenv("WEFT_DATABASE_URL", raising=False)
    monkeypatch.delenv("WEFT_ENCRYPTION_KEY", raising=False)
    opened = open_store(Settings(user_folder=tmp_path / "home"))
    opened.credentials.create("Key", "httpHeaderAuth", {"name": "X-Key", "value": SECRET}, id="cred1")
    opened.credentials.create("PG", "postgres", {"host": "db", "password": "pw"}, id="cred2")
    yield opened
    opened.close()


def _weft(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_the_default_export_is_encrypted_in_n8ns_shape(
    store: Store, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = _weft(capsys, "export:credentials", "--all")
    assert code == 0 and SECRET not in out
    exported = json.loads(out)
    assert [c["id"] for c in exported] == ["cred1", "cred2"]
    assert list(exported[0]) == [
        "updatedAt",
        "createdAt",
        "id",
        "name",
        "data",
        "type",
        "isManaged",
        "isGlobal",
        "isResolvable",
        "resolvableAllowFallback",
        "resolverId",
    ]
    cipher = instance_cipher(Settings(user_folder=tmp_path / "home"))
    assert cipher.decrypt(exported[0]["data"]) == {"name": "X-Key", "value": SECRET}
    assert out.startswith('[{"updatedAt":')  # JSON.stringify without --pretty


def test_decrypted_pretty_export_imports_back(store: Store, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _weft(capsys, "export:credentials", "--id=cred1", "--decrypted", "--pretty")
    assert code == 0 and out.startswith('[\n  {\n    "updatedAt"')
    [credential] = json.loads(out)
    assert credential["data"] == {"name": "X-Key", "value": SECRET}
    file = tmp_path / "plain.json"
    assert _weft(capsys, "export:credentials", "--all", "--decrypted", "--output", str(file))[0] == 0
    assert stat.S_IMODE(file.stat().st_mode) == 0o600
    store.credentials.delete("cred1")
    assert _weft(capsys, "import:credentials", "--input", str(file))[0] == 0
    restored = store.credentials.get("cred1")
    assert restored is not None and restored.data["value"] == SECRET


def test_backup_writes_one_private_file_per_credential(
    store: Store, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "backup" / "latest"
    code, out, err = _weft(capsys, "export:credentials", "--backup", "--output", str(folder))
    assert (code, out, err) == (0, "", "Successfully exported 2 credentials.\n")
    assert sorted(p.name for p in folder.iterdir()) == ["cred1.json", "cred2.json"]
    assert all(stat.S_IMODE(p.stat().st_mode) == 0o600 for p in folder.iterdir())
    saved = (folder / "cred1.json").read_text()
    assert saved.startswith('{\n  "updatedAt"') and SECRET not in saved


def test_usage_errors_carry_n8ns_messages(store: Store, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cases = {
        (): 'Either option "--all" or "--id" have to be set!',
        ("--all", "--id=cred1"): 'You should either use "--all" or "--id" but never both!',
        ("--all", "--separate"): "You must inform an output directory via --output when using --separate",
        ("--all", "--output", str(tmp_path)): "The parameter --output must be a writeable file",
    }
    for flags, message in cases.items():
        assert _weft(capsys, "export:credentials", *flags) == (2, "", message + "\n")
    code, out, err = _weft(capsys, "export:credentials", "--id=nope")
    assert (code, out) == (1, "") and "No credentials found with specified filters" in err


def test_separate_files_cannot_escape_the_folder(
    store: Store, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # an imported credential's id is any text: as a file name it must not climb out of --output
    store.credentials.import_credentials([{"id": "../../escaped", "name": "E", "type": "httpHeaderAuth", "data": {}}])
    folder = tmp_path / "out"
    code, _, err = _weft(capsys, "export:credentials", "--all", "--separate", "--output", str(folder))
    assert code == 1 and "not a file name" in err
    assert not (tmp_path.parent / "escaped.json").exists() and list(folder.iterdir()) == []
