"""``legacyWorkflowExecuteTests`` of n8n-io/n8n ``packages/core/test/helpers/constants.ts``, restated.

Run with ``executionOrder: 'v0'`` (breadth-first); ``node_data`` is each run's output-0 json. Left out:
"should display the correct parameters … simplified node-versioning", which tests a test-only node type
(``n8n-nodes-base.versionTest``) rather than the engine.
"""

from __future__ import annotations

from typing import Any

from tests.conformance._n8n import Connections, Scenario, if_v1, n, set_v1
from tests.conformance._v1_suite import (
    C1,
    C2,
    C3,
    V1,
    V2,
    V3,
    V134,
    A,
    complicated_graph,
    counter_loops_graph,
    depth_first_graph,
    missing_merge_data_graph,
    two_inputs_graph,
)


def _one_empty_graph() -> tuple[list[dict[str, Any]], Connections]:
    nodes = [
        n("Start", "start", (250, 450)),
        if_v1(
            "IF", (650, 350), boolean=[], number=[{"value1": "={{Object.keys($json).length}}", "operation": "notEqual"}]
        ),
        n("Merge1", "merge", (1150, 450)),
        set_v1("Set1", (450, 450), options=True, string=[("test1", "a")]),
        set_v1("Set2", (800, 250), options=True, string=[("test2", "b")]),
    ]
    connections: Connections = {
        "Start": [[("Set1", 0)]],
        "IF": [[("Set2", 0)], [("Merge1", 0)]],
        "Set1": [[("IF", 0), ("Merge1", 1)]],
        "Set2": [[("Merge1", 0)]],
    }
    return nodes, connections


def _second_input_empty_graph() -> tuple[list[dict[str, Any]], Connections]:
    conditions = {"boolean": [{"value2": True}], "string": [{"value1": '={{$json["key"]}}', "value2": "a"}]}
    nodes = [
        n("Start", "start", (250, 300)),
        n("Merge", "merge", (800, 450)),
        n("Merge1", "merge", (1000, 300)),
        n("IF", "if", (600, 600), {"conditions": conditions, "combineOperation": "any"}, alwaysOutputData=False),
        set_v1("Set0", (450, 300), options=True, number=["number0"], string=[("key", "a")]),
        set_v1("Set1", (450, 450), options=True, number=[("number1", 1)], string=[("key", "b")]),
        set_v1("Set2", (450, 600), options=True, number=[("number2", 2)], string=[("key", "c")]),
    ]
    connections: Connections = {
        "Start": [[("Set0", 0)]],
        "Merge": [[("Merge1", 1)]],
        "IF": [[("Merge", 1)]],
        "Set0": [[("Merge1", 0)]],
        "Set1": [[("Merge", 0)]],
        "Set2": [[("IF", 0)]],
    }
    return nodes, connections


_VALUE1_IS_1 = {"number": [{"value1": '={{$json["value1"]}}', "operation": "equal", "value2": 1}]}


def _sibling_empty_graph() -> tuple[list[dict[str, Any]], Connections]:
    nodes = [
        n("Start", "start", (250, 300)),
        if_v1("IF", (650, 300), **_VALUE1_IS_1),
        set_v1("Set2", (850, 450), options=True, string=[], number=[("value2", 2)]),
        set_v1("Set1", (450, 300), options=True, number=[("value1", 1)]),
        n("Merge", "merge", (1050, 300)),
    ]
    connections: Connections = {
        "Start": [[("Set1", 0)]],
        "IF": [[("Merge", 0)], [("Set2", 0)]],
        "Set2": [[("Merge", 1)]],
        "Set1": [[("IF", 0)]],
    }
    return nodes, connections


def _no_sibling_data_graph() -> tuple[list[dict[str, Any]], Connections]:
    nodes = [
        n("Start", "start", (250, 300)),
        set_v1("Set", (450, 300), options=True, number=["value1"]),
        n("Merge", "merge", (1050, 250)),
        if_v1("IF", (650, 300), **_VALUE1_IS_1),
        n("NoOpTrue", "noOp", (850, 150)),
        n("NoOpFalse", "noOp", (850, 400)),
    ]
    connections: Connections = {
        "Start": [[("Set", 0)]],
        "Set": [[("IF", 0)]],
        "IF": [[("NoOpTrue", 0), ("Merge", 1)], [("NoOpFalse", 0)]],
        "NoOpTrue": [[("Merge", 0)]],
    }
    return nodes, connections


LEGACY_SCENARIOS = [
    Scenario(
        "should run complicated multi node workflow where multiple Merge-Node have missing data and complex "
        "dependency structure",
        *missing_merge_data_graph(merge_version=1, if3_y=1100),
        order=[
            "Start",
            "Set1",
            "IF1",
            "IF2",
            "IF3",
            "Merge2",
            "IF4",
            "Merge1",
            "Merge4",
            "Merge3",
            "NoOp2",
            "Merge5",
            "Merge6",
        ],
        node_data={
            "Merge1": [[{}]],
            "Merge2": [[A]],
            "Merge3": [[{}]],
            "Merge4": [[{}, A]],
            "Merge5": [[{}, A, {}]],
            "Merge6": [[{}, A, {}, A]],
        },
    ),
    Scenario(
        "should simply execute the next multi-input-node (totally ignoring the runIndex)",
        *counter_loops_graph(merge_version=2.1),
        order=[
            "Start",
            "Set1",
            "Set",
            "IF1",
            "IF",
            "Set1",
            "Set",
            "Merge1",
            "IF1",
            "IF",
            "Set1",
            "Set",
            "Merge1",
            "IF1",
            "IF",
            "Merge",
            "Merge2",
            "Merge2",
        ],
        node_data={
            "Start": [[{}]],
            "Set1": [[C1], [C2], [C3]],
            "Set": [[C1], [C2], [C3]],
            "IF1": [[C1], [C2], []],
            "IF": [[C1], [C2], []],
            "Merge1": [[C1, C1], [C2, C2]],
            "Merge": [[C3, {}]],
            "Merge2": [[C1, C1, C3, {}], [C2, C2]],
        },
    ),
    Scenario(
        "should run basic two node workflow",
        [n("Start", "start", (100, 300)), set_v1("Set", (280, 300), number=[("value1", 1)])],
        {"Start": [[("Set", 0)]]},
        order=["Start", "Set"],
        node_data={"Set": [[V1]]},
    ),
    Scenario(
        "should run node twice when it has two input connections3",
        *two_inputs_graph(),
        order=["Start", "Set1", "Set2", "Set2"],
        node_data={"Set1": [[V1]], "Set2": [[V2], [{"value1": 1, "value2": 2}]]},
    ),
    Scenario(
        "should run complicated multi node workflow",
        *complicated_graph(),
        order=["Start", "Set1", "Set2", "Set3", "Merge1", "Set4", "Merge2", "Merge3", "Merge4"],
        node_data={
            "Set1": [[V1]],
            "Set2": [[V2]],
            "Set3": [[V3]],
            "Set4": [[V134]],
            "Merge1": [[V1, V2]],
            "Merge2": [[V2]],
            "Merge3": [[V134, V2]],
            "Merge4": [[V134, V2]],
        },
    ),
    Scenario(
        "should run workflow also if node has multiple input connections and one is empty",
        *_one_empty_graph(),
        order=["Start", "Set1", "IF", "Set2", "Merge1"],
        node_data={"Merge1": [[{"test1": "a", "test2": "b"}, {"test1": "a"}]]},
    ),
    Scenario(
        "should use empty data if second input does not have any data",
        *_second_input_empty_graph(),
        order=["Start", "Set0", "Set2", "IF", "Set1", "Merge", "Merge1"],
        node_data={
            "Merge": [[{"number1": 1, "key": "b"}]],
            "Merge1": [[{"number0": 0, "key": "a"}, {"number1": 1, "key": "b"}]],
        },
    ),
    Scenario(
        "should use empty data if input of sibling does not receive any data from parent",
        *_sibling_empty_graph(),
        order=["Start", "Set1", "IF", "Set2", "Merge"],
        node_data={"Merge": [[V1, V2]]},
    ),
    Scenario(
        "should not use empty data in sibling if parent did not send any data",
        *_no_sibling_data_graph(),
        order=["Start", "Set", "IF", "NoOpFalse"],
        node_data={"IF": [[]], "NoOpFalse": [[{"value1": 0}]]},
    ),
    Scenario(
        "should execute nodes in the correct order, breath-first & order of connection",
        *depth_first_graph(),
        order=[
            "Start",
            "Set",
            "Wait",
            "Wait1",
            "Wait6",
            "Wait7",
            "Wait8",
            "Wait9",
            "Wait2",
            "Wait4",
            "Wait13",
            "Wait3",
            "Merge",
            "Wait5",
            "Wait10",
            "Wait11",
            "Wait14",
            "Wait12",
            "IF",
            "IF1",
            "Wait15",
            "Wait16",
            "Wait17",
            "Wait18",
        ],
    ),
]
