"""The fixture workflows of n8n-io/n8n ``packages/core/src/execution-engine/__tests__/workflows/``, restated.

n8n's test strips each file's ``pinData``, runs the workflow and compares every pinned node's output with its
pin data. Each builder here returns ``(workflow, expected)``: the same graph, and the pin data as facts.
"""

from __future__ import annotations

from typing import Any

from tests.conformance._n8n import n

Fixture = tuple[dict[str, Any], dict[str, list[dict[str, Any]]]]


def _workflow(name: str, nodes: list[dict[str, Any]], connections: dict[str, Any], **settings: Any) -> dict[str, Any]:
    return {
        "name": name,
        "nodes": nodes,
        "connections": {
            source: {"main": [[{"node": t, "type": "main", "index": i} for t, i in out] for out in outputs]}
            for source, outputs in connections.items()
        },
        "settings": settings,
    }


def _item(json: dict[str, Any], paired: int | None = 0) -> dict[str, Any]:
    return {"json": json} if paired is None else {"json": json, "pairedItem": {"item": paired}}


# --------------------------------------------------------------------------- always_output_data_multiple_outputs.json


def always_output_data_multiple_outputs() -> Fixture:
    trigger = "When clicking ‘Execute workflow’"
    false_is_true = {
        "conditions": {
            "options": {"caseSensitive": True, "leftValue": "", "typeValidation": "strict", "version": 2},
            "conditions": [
                {
                    "id": "8bc8b97d-2d13-4267-80e4-5947cb0c61db",
                    "leftValue": False,
                    "rightValue": "",
                    "operator": {"type": "boolean", "operation": "true", "singleValue": True},
                }
            ],
            "combinator": "and",
        },
        "options": {},
    }
    foo_bar = {"assignments": {"assignments": [{"id": "40ee7f65", "name": "foo", "value": "bar", "type": "string"}]}}
    nodes = [
        n(trigger, "manualTrigger", (0, 0)),
        n("If", "if", (448, 0), false_is_true, 2.2, alwaysOutputData=True),
        n("Edit Fields", "set", (224, 0), {**foo_bar, "options": {}}, 3.4),
        n("No Operation, do nothing", "noOp", (704, 0)),
    ]
    connections = {
        trigger: [[("Edit Fields", 0)]],
        "Edit Fields": [[("If", 0)]],
        "If": [[("No Operation, do nothing", 0)], [("No Operation, do nothing", 0)]],
    }
    expected = {"No Operation, do nothing": [_item({"foo": "bar"})]}
    return _workflow("Always Output Data Multiple Outputs", nodes, connections, executionOrder="v1"), expected


# --------------------------------------------------------------------------- retry_and_continue_on_error.json

_RESET = "$execution.customData.set('count', '1')\nreturn [{}]"


def _succeeds_at(count: int) -> str:
    return (
        "const count = +$execution.customData.get('count')\n"
        "$execution.customData.set('count', `${count + 1}`)\n\n"
        f"if (count === {count}) {{\n  return {{ success: true, count }}\n}}\n\n"
        "throw new Error('simulated error, count = ' + count)"
    )


#: ``(node, succeeds at count, y, retryOnFail, onError)``; "Reset Count k" (x -1120) feeds the k-th node (x -900).
_RETRY_NODES = [
    ("Retry + Continue 1", 1, -240, True, "continueRegularOutput"),
    ("Retry + Continue 2", 2, -40, True, "continueRegularOutput"),
    ("Retry + Continue 3", 3, 160, True, "continueRegularOutput"),
    ("Retry + Continue 4", 4, 360, True, "continueRegularOutput"),
    ("Retry + Continue 5", 1, 560, True, "continueErrorOutput"),
    ("Retry + Continue 6", 2, 760, True, "continueErrorOutput"),
    ("Retry + Continue 7", 3, 960, True, "continueErrorOutput"),
    ("Retry + Continue 8", 4, 1160, True, "continueErrorOutput"),
    ("Continue 1", 1, 1360, False, "continueRegularOutput"),
    ("Continue 2", 2, 1560, False, "continueRegularOutput"),
    ("Continue 3", 1, 1760, False, "continueErrorOutput"),
    ("Continue 4", 2, 1960, False, "continueErrorOutput"),
    ("Retry 1", 1, 2160, True, None),
    ("Retry 2", 2, 2360, True, None),
    ("Retry 3", 3, 2560, True, None),
]


def retry_and_continue_on_error() -> Fixture:
    trigger = "When clicking ‘Execute workflow’"
    nodes = [n(trigger, "manualTrigger", (-1340, 1160))]
    connections: dict[str, Any] = {trigger: [[(f"Reset Count {k}", 0) for k in range(1, 16)]]}
    for k, (name, count, y, retry, on_error) in enumerate(_RETRY_NODES, 1):
        settings: dict[str, Any] = {"retryOnFail": retry, "maxTries": 3, "waitBetweenTries": 10}
        if on_error is not None:
            settings["onError"] = on_error
        nodes.append(n(f"Reset Count {k}", "code", (-1120, y), {"jsCode": _RESET}, 2))
        nodes.append(n(name, "code", (-900, y), {"jsCode": _succeeds_at(count)}, 2, **settings))
        connections[f"Reset Count {k}"] = [[(name, 0)]]
    ok = {count: _item({"success": True, "count": count}) for count in (1, 2, 3)}
    expected = {
        "Retry + Continue 2": [ok[2]], "Retry + Continue 1": [ok[1]], "Retry + Continue 5": [ok[1]],
        "Retry + Continue 6": [ok[2]], "Retry + Continue 8": [], "Continue 1": [ok[1]],
        "Continue 2": [_item({"error": "simulated error, count = 1 [line 8]"})], "Continue 4": [],
        "Continue 3": [ok[1]], "Retry 2": [ok[2]],
        "Retry + Continue 4": [_item({"error": "simulated error, count = 3 [line 8]"})],
        "Retry + Continue 3": [ok[3]], "Retry 3": [ok[3]],
    }  # fmt: skip
    return _workflow("Retry and Continue On Fail", nodes, connections, executionOrder="v1"), expected
