import pytest

from weft.db import SaveDefaults, should_save


@pytest.mark.parametrize(
    ("mode", "status", "settings", "expected"),
    [
        ("webhook", "success", {}, True),
        ("webhook", "error", {}, True),
        ("webhook", "success", {"saveDataSuccessExecution": "none"}, False),
        ("webhook", "error", {"saveDataSuccessExecution": "none"}, True),
        ("trigger", "error", {"saveDataErrorExecution": "none"}, False),
        ("trigger", "canceled", {"saveDataErrorExecution": "none"}, False),
        ("trigger", "crashed", {"saveDataErrorExecution": "all"}, True),
        ("webhook", "success", {"saveDataSuccessExecution": "DEFAULT"}, True),
        # manual executions follow saveManualExecutions only
        ("manual", "success", {"saveManualExecutions": False}, False),
        ("manual", "error", {"saveManualExecutions": False, "saveDataErrorExecution": "all"}, False),
        ("manual", "success", {"saveManualExecutions": True, "saveDataSuccessExecution": "none"}, True),
        ("manual", "success", {"saveManualExecutions": "DEFAULT"}, True),
    ],
)
def test_workflow_settings(mode: str, status: str, settings: dict[str, object], expected: bool) -> None:
    assert should_save(mode=mode, status=status, waiting=False, workflow_settings=settings) is expected


def test_instance_defaults_apply_when_the_workflow_says_nothing() -> None:
    defaults = SaveDefaults(success="none", error="none", manual=False)
    assert should_save(mode="webhook", status="success", waiting=False, defaults=defaults) is False
    assert should_save(mode="webhook", status="error", waiting=False, defaults=defaults) is False
    assert should_save(mode="manual", status="success", waiting=False, defaults=defaults) is False
    assert (
        should_save(
            mode="webhook",
            status="success",
            waiting=False,
            workflow_settings={"saveDataSuccessExecution": "all"},
            defaults=defaults,
        )
        is True
    )


def test_waiting_executions_are_always_kept() -> None:
    none = {"saveDataSuccessExecution": "none", "saveDataErrorExecution": "none", "saveManualExecutions": False}
    assert should_save(mode="manual", status="waiting", waiting=True, workflow_settings=none) is True
    assert should_save(mode="webhook", status="waiting", waiting=True, workflow_settings=none) is True
