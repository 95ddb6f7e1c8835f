"""``weft list:workflow``, ``publish:workflow``, ``unpublish:workflow`` and ``update:workflow``: n8n 2's flags and
messages, through the CLI's entry point against a real SQLite instance."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from weft.cli import main
from weft.db.store import Store
from weft.services.import_export import open_store
from weft.settings import Settings
from weft.testing.workflows import connect, node, workflow


@pytest.fixture
def store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Store]:
    monkeypatch.setenv("WEFT_USER_FOLDER", str(tmp_path))
    monkeypatch.delenv("WEFT_DATABASE_URL", raising=False)
    monkeypatch.delenv("WEFT_ENCRYPTION_KEY", raising=False)
    opened = open_store(Settings(user_folder=tmp_path))
    hook = workflow(
        node("Webhook", "n8n-nodes-base.webhook", {"path": "hook"}, version=2),
        node("Set", position=(200, 0)),
        connect("Webhook", "Set"),
    )
    opened.workflows.import_workflow({**hook, "id": "wfHook", "name": "Hook"})
    manual = workflow(node("Start", "n8n-nodes-base.manualTrigger"))
    opened.workflows.import_workflow({**manual, "id": "wfManual", "name": "Manual"})
    yield opened
    opened.close()


def _weft(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_list_prints_id_and_name_lines_filtered_by_active(store: Store, capsys: pytest.CaptureFixture[str]) -> None:
    assert _weft(capsys, "list:workflow") == (0, "wfHook|Hook\nwfManual|Manual\n", "")
    assert _weft(capsys, "list:workflow", "--onlyId")[1] == "wfHook\nwfManual\n"
    assert _weft(capsys, "list:workflow", "--active=true")[1] == ""
    store.workflows.activate("wfHook")
    assert _weft(capsys, "list:workflow", "--active=true", "--onlyId")[1] == "wfHook\n"
    assert _weft(capsys, "list:workflow", "--active=false")[1] == "wfManual|Manual\n"
    code, out, err = _weft(capsys, "list:workflow", "--active=maybe")
    assert (code, out) == (2, "") and "The --active flag has to be passed using true or false" in err


def test_publish_activates_and_registers_the_webhooks(store: Store, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = _weft(capsys, "publish:workflow", "--id=wfHook")
    assert code == 0, err
    assert out == "Publishing workflow with ID: wfHook (current version)\n"
    stored = store.workflows.get("wfHook")
    assert stored is not None and stored.active
    assert [w.path for w in store.webhooks.list(workflow_id="wfHook")] == ["hook"]
    current = stored.version_id or ""
    assert _weft(capsys, "publish:workflow", "--id", "wfHook", "--versionId", current)[0] == 0


def test_publish_refusals_say_why(store: Store, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = _weft(capsys, "publish:workflow", "--id=wfHook", "--versionId=old")
    assert code == 1 and out == "Publishing workflow with ID: wfHook, version: old\n"
    assert 'Version "old" not found for workflow "wfHook".' in err and "without --versionId" in err
    code, _, err = _weft(capsys, "publish:workflow", "--id=nope")
    assert code == 1 and 'Workflow "nope" not found.' in err
    code, _, err = _weft(capsys, "publish:workflow", "--id=wfManual")  # a manual trigger cannot start it
    assert code == 1 and "at least one trigger, poller or webhook node is required" in err
    code, _, err = _weft(capsys, "publish:workflow", "--id=wfHook", "--all")
    assert code == 2 and "The --all flag is no longer supported for workflow publishing." in err
    assert [w.id for w in store.workflows.list(active=True)] == []


def test_unpublish_one_or_all(store: Store, capsys: pytest.CaptureFixture[str]) -> None:
    assert _weft(capsys, "publish:workflow", "--id=wfHook")[0] == 0
    code, out, _ = _weft(capsys, "unpublish:workflow", "--id=wfHook")
    assert code == 0
    assert out == "Unpublishing workflow with ID: wfHook\nWorkflow unpublished successfully\n"
    assert store.workflows.list(active=True) == [] and store.webhooks.list(workflow_id="wfHook") == []
    assert _weft(capsys, "publish:workflow", "--id=wfHook")[0] == 0
    code, out, _ = _weft(capsys, "unpublish:workflow", "--all")
    assert (code, out) == (0, "Unpublishing all workflows\nAll workflows unpublished successfully\n")
    assert store.workflows.list(active=True) == []
    assert _weft(capsys, "unpublish:workflow")[::2] == (2, 'Either option "--all" or "--id" must be set.\n')
    both = _weft(capsys, "unpublish:workflow", "--all", "--id=wfHook")
    assert both[::2] == (2, 'Cannot use both "--all" and "--id" flags together.\n')
    assert _weft(capsys, "unpublish:workflow", "--id=nope")[0] == 1


def test_update_workflow_is_deprecated_but_still_works(store: Store, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = _weft(capsys, "update:workflow", "--id=wfHook", "--active=true")
    assert code == 0 and out == "Publishing workflow wfHook with current version\n"
    assert err.startswith('⚠️  WARNING: The "update:workflow" command is deprecated.')
    assert "Please use: publish:workflow --id=wfHook" in err
    assert [w.id for w in store.workflows.list(active=True)] == ["wfHook"]
    code, out, err = _weft(capsys, "update:workflow", "--all", "--active=false")
    assert code == 0 and out == "Deactivating all workflows\n" and "Please use: unpublish:workflow --all" in err
    assert store.workflows.list(active=True) == []
    code, _, err = _weft(capsys, "update:workflow", "--all", "--active=true")
    assert code == 2 and 'Workflow publishing via "update:workflow --all" is no longer supported.' in err
    assert 'No update flag like "--active=true" has been set!' in _weft(capsys, "update:workflow", "--id=x")[2]
    assert "are only" in _weft(capsys, "update:workflow", "--id=x", "--active=yes")[2]
