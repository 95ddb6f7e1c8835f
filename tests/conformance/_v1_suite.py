"""``v1WorkflowExecuteTests`` of n8n-io/n8n ``packages/core/test/helpers/constants.ts``, restated.

Each scenario keeps n8n's node names, types, versions, positions, parameters and connection order, and the
expected ``nodeExecutionOrder`` and per-run ``nodeData`` (json of output 0, or of every output with
``testAllOutputs``). The nodes n8n names "Wait…" in the depth-first graph are Set v1 nodes in n8n's fixture.
"""

from __future__ import annotations

from typing import Any

from tests.conformance._n8n import Connections, Scenario, if_v1, n, set_v1

# --------------------------------------------------------------------------- shared graphs (also in the v0 suite)


def two_inputs_graph() -> tuple[list[dict[str, Any]], Connections]:
    nodes = [
        n("Start", "start", (100, 300)),
        set_v1("Set1", (300, 250), number=[("value1", 1)]),
        set_v1("Set2", (500, 400), number=[("value2", 2)]),
    ]
    return nodes, {"Start": [[("Set1", 0), ("Set2", 0)]], "Set1": [[("Set2", 0)]]}


def complicated_graph() -> tuple[list[dict[str, Any]], Connections]:
    # n8n's fixture lists Merge4 twice (uuid-1 and uuid-5, identical); n8n keys nodes by name, so it is one node
    nodes = [
        n("Merge4", "merge", (1150, 500), {"mode": "passThrough"}),
        set_v1("Set2", (290, 400), number=[("value2", 2)]),
        set_v1("Set4", (850, 200), number=[("value4", 4)]),
        set_v1("Set3", (650, 200), number=[("value3", 3)]),
        n("Merge3", "merge", (1000, 400)),
        n("Merge2", "merge", (700, 400), {"mode": "passThrough", "output": "input2"}),
        n("Merge1", "merge", (500, 300)),
        set_v1("Set1", (300, 200), number=[("value1", 1)]),
        n("Start", "start", (100, 300)),
    ]
    connections: Connections = {
        "Set2": [[("Merge1", 1), ("Merge2", 1)]],
        "Set4": [[("Merge3", 0)]],
        "Set3": [[("Set4", 0)]],
        "Merge3": [[("Merge4", 0)]],
        "Merge2": [[("Merge3", 1)]],
        "Merge1": [[("Merge2", 0)]],
        "Set1": [[("Merge1", 0), ("Set3", 0)]],
        "Start": [[("Set1", 0), ("Set2", 0), ("Merge4", 1)]],
    }
    return nodes, connections


_WAIT_POSITIONS = {
    "Wait": (740, 420), "Wait1": (740, 800), "Wait2": (940, 420), "Wait3": (1300, 420), "Wait4": (940, 800),
    "Wait5": (1140, 800), "Wait6": (760, 200), "Wait7": (1060, 200), "Wait8": (740, 600), "Wait9": (1040, 580),
    "Wait10": (1660, 340), "Wait11": (1660, 540), "Wait12": (1920, 340), "Wait13": (1240, 580),
    "Wait14": (1520, 220), "Wait15": (2020, -300), "Wait16": (2020, -140), "Wait17": (2020, 200),
    "Wait18": (2020, 40),
}  # fmt: skip


def depth_first_graph() -> tuple[list[dict[str, Any]], Connections]:
    def wait(name: str) -> dict[str, Any]:
        return n(name, "set", _WAIT_POSITIONS[name], {"options": {}})

    item_is_1 = {"number": [{"value1": "={{ $itemIndex }}", "operation": "equal", "value2": 1}]}
    nodes = [
        n("Start", "start", (300, 620)),
        wait("Wait"),
        set_v1("Set", (480, 620), version=2, options=True, number=["wait"]),
        *(wait(f"Wait{i}") for i in range(1, 14)),
        n("Merge", "merge", (1300, 220), version=2),
        wait("Wait14"),
        if_v1("IF", (1780, -220), **item_is_1),
        wait("Wait15"),
        wait("Wait16"),
        if_v1("IF1", (1780, 120), **item_is_1),
        wait("Wait17"),
        wait("Wait18"),
    ]
    connections: Connections = {
        "Start": [[("Set", 0)]],
        "Wait": [[("Wait2", 0)]],
        "Set": [[("Wait", 0), ("Wait1", 0), ("Wait6", 0), ("Wait7", 0), ("Wait8", 0), ("Wait9", 0)]],
        "Wait1": [[("Wait4", 0)]],
        "Wait2": [[("Wait3", 0), ("Merge", 1)]],
        "Wait3": [[("Wait10", 0), ("Wait11", 0)]],
        "Wait4": [[("Wait5", 0)]],
        "Wait7": [[("Merge", 0)]],
        "Wait9": [[("Wait13", 0)]],
        "Wait10": [[("Wait12", 0)]],
        "Merge": [[("Wait14", 0)]],
        "Wait14": [[("IF", 0), ("IF1", 0)]],
        "IF": [[("Wait15", 0)], [("Wait16", 0)]],
        "IF1": [[("Wait17", 0)], [("Wait18", 0)]],
    }
    return nodes, connections


def counter_loops_graph(merge_version: float) -> tuple[list[dict[str, Any]], Connections]:
    counter = [("counter", "={{ ($input.first().json.counter || 0) + 1 }}")]
    below_3 = {"number": [{"value1": "={{ $json.counter }}", "value2": 3}]}  # operation: n8n's default 'smaller'
    nodes = [
        set_v1("Set", (640, 660), version=2, options=True, number=counter),
        if_v1("IF", (900, 660), **below_3),
        n("Merge", "merge", (1180, 760), version=merge_version),
        set_v1("Set1", (640, 320), version=2, options=True, number=counter),
        if_v1("IF1", (860, 320), **below_3),
        n("Merge1", "merge", (1180, 420), version=merge_version),
        n("Merge2", "merge", (1500, 600), version=merge_version),
        n("Start", "start", (-20, 700)),
    ]
    connections: Connections = {
        "Set": [[("IF", 0)]],
        "IF": [[("Set", 0), ("Merge1", 1)], [("Merge", 0)]],
        "Merge": [[("Merge2", 1)]],
        "Set1": [[("IF1", 0)]],
        "IF1": [[("Set1", 0), ("Merge1", 0)]],
        "Merge1": [[("Merge2", 0)]],
        "Start": [[("Merge", 1), ("Set1", 0), ("Set", 0)]],
    }
    return nodes, connections


def missing_merge_data_graph(merge_version: float, if3_y: int) -> tuple[list[dict[str, Any]], Connections]:
    def test_is(value: str) -> dict[str, Any]:
        return {"string": [{"value1": '={{ $json["test"] }}', "value2": value}]}

    nodes = [
        if_v1("IF4", (880, 1240), **test_is("b")),
        n("NoOp2", "noOp", (1320, 1060)),
        n("Merge3", "merge", (1100, 1060), version=merge_version),
        if_v1("IF3", (620, if3_y), **test_is("b")),
        n("Merge2", "merge", (940, 900), version=merge_version),
        if_v1("IF2", (620, 900), **test_is("a")),
        n("Merge7", "merge", (2180, 1180), version=merge_version),
        n("Merge6", "merge", (1840, 1200), version=merge_version),
        n("Merge5", "merge", (1600, 1040), version=merge_version),
        n("Merge4", "merge", (1180, 880), version=merge_version),
        n("Merge1", "merge", (940, 720), version=merge_version),
        if_v1("IF1", (620, 720), **test_is("b")),
        set_v1("Set1", (400, 720), options=True, string=[("test", "a")]),
        n("Start", "start", (160, 240)),
    ]
    connections: Connections = {
        "IF4": [[("Merge3", 1)], [("Merge6", 1)]],
        "NoOp2": [[("Merge5", 1)]],
        "Merge3": [[("NoOp2", 0)]],
        "IF3": [[("Merge3", 0)], [("IF4", 0)]],
        "Merge2": [[("Merge4", 1)]],
        "IF2": [[("Merge2", 0)], [("Merge2", 1)]],
        "Merge6": [[("Merge7", 1)]],
        "Merge5": [[("Merge6", 0)]],
        "Merge4": [[("Merge5", 0)]],
        "Merge1": [[("Merge4", 0)]],
        "IF1": [[("Merge1", 0)], [("Merge1", 1)]],
        "Set1": [[("IF1", 0), ("IF2", 0), ("IF3", 0)]],
        "Start": [[("Set1", 0)]],
    }
    return nodes, connections


def _error_output_graph() -> tuple[list[dict[str, Any]], Connections]:
    def assign(name: str, value: str, id_: str) -> dict[str, Any]:
        return {"id": id_, "name": name, "value": value, "type": "string"}

    def edit(name: str, position: tuple[int, int], *assignments: dict[str, Any]) -> dict[str, Any]:
        return n(name, "set", position, {"assignments": {"assignments": list(assignments)}, "options": {}}, 3.4)

    name_is_foo = {
        "conditions": {
            "options": {"caseSensitive": True, "leftValue": "", "typeValidation": "strict"},
            "conditions": [
                {
                    "id": "96f95963-0edc-4d65-9935-6e141f39fcb1",
                    "leftValue": "={{ $json.name }}",
                    "rightValue": "foo",
                    "operator": {"type": "string", "operation": "equals", "name": "filter.operator.equals"},
                }
            ],
            "combinator": "and",
        },
        "options": {},
    }
    nodes = [
        n("Start", "start", (440, 1100)),
        edit("Edit Fields", (780, 980), assign("name", "foo", "1ba24256"), assign("value", "bar", "eee5a4fe")),
        edit("Edit Fields1", (780, 1180), assign("name", "bar", "9182c7f5"), assign("value", "baz", "cba31e58")),
        n("Merge", "merge", (1080, 1060)),
        edit(
            "Edit Fields3",
            (1580, 1180),
            assign("name", "={{ $json.name }}", "14d413c6"),
            assign("value", "={{ $json.value }}", "77f3d6d9"),
        ),
        n("If1", "if", (1360, 1060), name_is_foo, 2, onError="continueErrorOutput"),
        edit(
            "Edit Fields2",
            (1580, 900),
            assign("name", "={{ $json.name }}", "c8974629"),
            assign("value", "={{ $json.value }}", "341a502e"),
        ),
    ]
    connections: Connections = {
        "Start": [[("Edit Fields", 0), ("Edit Fields1", 0)]],
        "Edit Fields": [[("Merge", 0)]],
        "Edit Fields1": [[("Merge", 1)]],
        "Merge": [[("If1", 0)]],
        "If1": [[("Edit Fields2", 0)], [("Edit Fields3", 0)]],
    }
    return nodes, connections


def _keep_executing_graph() -> tuple[list[dict[str, Any]], Connections]:
    nodes = [
        n("Start", "start", (180, 240)),
        set_v1("Set", (400, 240), options=True, string=[("test", "a")]),
        if_v1("IF", (620, 240), string=[{"value1": '={{ $json["test"] }}', "value2": "b"}]),
        n("NoOp", "noOp", (860, 160)),
        n("NoOp1", "noOp", (860, 300)),
        n("Merge", "merge", (1140, 220), version=2),
    ]
    connections: Connections = {
        "Start": [[("Set", 0)]],
        "Set": [[("IF", 0)]],
        "IF": [[("NoOp", 0)], [("NoOp1", 0)]],
        "NoOp": [[("Merge", 0)]],
        "NoOp1": [[("Merge", 1)]],
    }
    return nodes, connections


# --------------------------------------------------------------------------- the suite

A, V1, V2, V3 = {"test": "a"}, {"value1": 1}, {"value2": 2}, {"value1": 1, "value3": 3}
V134 = {"value1": 1, "value3": 3, "value4": 4}
C1, C2, C3 = {"counter": 1}, {"counter": 2}, {"counter": 3}
FOO, BAR = {"name": "foo", "value": "bar"}, {"name": "bar", "value": "baz"}

V1_SCENARIOS = [
    Scenario(
        "should run node twice when it has two input connections",
        *two_inputs_graph(),
        order=["Start", "Set1", "Set2", "Set2"],
        node_data={"Set1": [[[V1]]], "Set2": [[[{"value1": 1, "value2": 2}]], [[V2]]]},
    ),
    Scenario(
        "should run complicated multi node workflow",
        *complicated_graph(),
        order=["Start", "Set1", "Set3", "Set4", "Set2", "Merge1", "Merge2", "Merge3", "Merge4"],
        node_data={
            "Set1": [[[V1]]],
            "Set2": [[[V2]]],
            "Set3": [[[V3]]],
            "Set4": [[[V134]]],
            "Merge1": [[[V1, V2]]],
            "Merge2": [[[V2]]],
            "Merge3": [[[V134, V2]]],
            "Merge4": [[[V134, V2]]],
        },
    ),
    Scenario(
        "should execute nodes in the correct order, depth-first & the most top-left one first",
        *depth_first_graph(),
        order=[
            "Start",
            "Set",
            "Wait6",
            "Wait7",
            "Wait",
            "Wait2",
            "Merge",
            "Wait14",
            "IF",
            "Wait15",
            "Wait16",
            "IF1",
            "Wait18",
            "Wait17",
            "Wait3",
            "Wait10",
            "Wait12",
            "Wait11",
            "Wait9",
            "Wait13",
            "Wait8",
            "Wait1",
            "Wait4",
            "Wait5",
        ],
    ),
    Scenario(
        "should simply execute the next multi-input-node (totally ignoring the runIndex)",
        *counter_loops_graph(merge_version=2),
        order=[
            "Start",
            "Set1",
            "IF1",
            "Set1",
            "IF1",
            "Set1",
            "IF1",
            "Set",
            "IF",
            "Merge1",
            "Set",
            "IF",
            "Merge1",
            "Set",
            "IF",
            "Merge",
            "Merge2",
            "Merge2",
        ],
        node_data={
            "Start": [[[{}]]],
            "Set1": [[[C1]], [[C2]], [[C3]]],
            "Set": [[[C1]], [[C2]], [[C3]]],
            "IF1": [[[C1]], [[C2]], [[]]],
            "IF": [[[C1]], [[C2]], [[]]],
            "Merge1": [[[C1, C1]], [[C2, C2]]],
            "Merge": [[[C3, {}]]],
            "Merge2": [[[C1, C1, C3, {}]], [[C2, C2]]],
        },
    ),
    Scenario(
        "should run keep on executing even if data from input 1 is missing",
        *_keep_executing_graph(),
        order=["Start", "Set", "IF", "NoOp1", "Merge"],
        node_data={"Merge": [[[A]]]},
    ),
    Scenario(
        "should run complicated multi node workflow where multiple Merge-Node have missing data and complex "
        "dependency structure",
        *missing_merge_data_graph(merge_version=2, if3_y=1060),
        order=["Start", "Set1", "IF1", "IF2", "IF3", "IF4", "Merge1", "Merge2", "Merge4", "Merge5", "Merge6", "Merge7"],
        node_data={
            "Merge1": [[[A]]],
            "Merge2": [[[A]]],
            "Merge4": [[[A, A]]],
            "Merge5": [[[A, A]]],
            "Merge6": [[[A, A, A]]],
            "Merge7": [[[A, A, A]]],
        },
    ),
    Scenario(
        "Should output successful branches on multi-output nodes with continueErrorOutput selected",
        *_error_output_graph(),
        order=["Start", "Edit Fields", "Edit Fields1", "Merge", "If1", "Edit Fields2", "Edit Fields3"],
        all_outputs=True,
        node_data={
            "Start": [[[{}]]],
            "Edit Fields": [[[FOO]]],
            "Edit Fields1": [[[BAR]]],
            "Merge": [[[FOO, BAR]]],
            "If1": [[[FOO], [BAR], []]],
            "Edit Fields2": [[[FOO]]],
            "Edit Fields3": [[[BAR]]],
        },
    ),
]
