"""``error_outputs.json`` and ``paired_items_fix.json`` of n8n's ``execution-engine/__tests__/workflows/``, restated.

See :mod:`tests.conformance._fixture_workflows` for the format.
"""

from __future__ import annotations

from typing import Any

from tests.conformance._fixture_workflows import Fixture, _item, _workflow
from tests.conformance._n8n import n, set_v1

#: The five people of n8n's "Mock Data" Code node (and of the n8n training customer datastore).
PEOPLE: list[dict[str, Any]] = [
    {"id": "23423532", "name": "Jay Gatsby", "email": "gatsby@west-egg.com",
     "notes": "Keeps asking about a green light??", "country": "US", "created": "1925-04-10"},
    {"id": "23423533", "name": "José Arcadio Buendía", "email": "jab@macondo.co",
     "notes": "Lots of people named after him. Very confusing", "country": "CO", "created": "1967-05-05"},
    {"id": "23423534", "name": "Max Sendak", "email": "info@in-and-out-of-weeks.org",
     "notes": "Keeps rolling his terrible eyes", "country": "US", "created": "1963-04-09"},
    {"id": "23423535", "name": "Zaphod Beeblebrox", "email": "captain@heartofgold.com",
     "notes": "Felt like I was talking to more than one person", "country": None, "created": "1979-10-12"},
    {"id": "23423536", "name": "Edmund Pevensie", "email": "edmund@narnia.gov",
     "notes": "Passionate sailor", "country": "UK", "created": "1950-10-16"},
]  # fmt: skip


def _js_people() -> str:
    import json

    return "return " + json.dumps(PEOPLE, indent=2, ensure_ascii=False)


# --------------------------------------------------------------------------- error_outputs.json

_THROW_FOR_US = (
    "// Add a new field called 'myNewField' to the JSON of the item\n$input.item.json.myNewField = 1;\n\n"
    "if ($input.item.json.country === 'US') {\n  throw new Error('This is an error');\n}\n\nreturn $input.item;"
)


def _sticky(name: str, position: tuple[int, int], content: str, height: float, width: float) -> dict[str, Any]:
    """A canvas note: never executed, not connected."""
    return n(name, "stickyNote", position, {"content": content, "height": height, "width": width})


def _original_name(name: str, position: tuple[int, int]) -> dict[str, Any]:
    value = {"name": "originalName", "stringValue": "={{ $('Mock Data').item.json.name }}"}
    return n(name, "set", position, {"fields": {"values": [value]}, "options": {}}, 3.2)


def _throw(name: str, position: tuple[int, int], **settings: Any) -> dict[str, Any]:
    return n(name, "code", position, {"mode": "runOnceForEachItem", "jsCode": _THROW_FOR_US}, 2, **settings)


def error_outputs() -> Fixture:
    trigger = 'When clicking "Execute Workflow"'
    nodes = [
        n(trigger, "manualTrigger", (-60, 780)),
        _original_name("Success", (820, 1180)),
        _original_name("Error", (820, 1360)),
        n("Mock Data", "code", (160, 780), {"jsCode": _js_people()}, 2),
        _original_name("Combined", (800, 560)),
        _throw("Throw Error", (480, 1280), errorOutput=True, onError="continueErrorOutput"),
        _throw("Throw Error2", (500, 880), onError="continueRegularOutput"),
        _original_name("Combined1", (800, 880)),
        _throw("Throw Error1", (500, 560), continueOnFail=True),
        _original_name("Success1", (820, 1640)),
        _throw("Throw Error3", (480, 1740), errorOutput=True, onError="continueErrorOutput"),
        n("Edit Fields", "set", (1040, 1820), {"options": {}}, 3.2, onError="continueErrorOutput"),
        _original_name("Success2", (1320, 1680)),
        _original_name("Error2", (1320, 1900)),
        _original_name("Error1", (820, 1820)),
        _sticky("Sticky Note", (460, 1100), "## On Error: Continue (using error output)", 414, 564),
        _sticky("Sticky Note1", (460, 460), "## Continue On Fail (deprecated)", 279, 564),
        _sticky("Sticky Note2", (460, 780), "## On Error: Continue", 279, 564),
        _sticky("Sticky Note3", (460, 1560),
                "## On Error: Continue (using error output) + Make sure error data gets removed",
                509.71047006830065, 1183.725293692246),
    ]  # fmt: skip
    connections = {
        trigger: [[("Mock Data", 0)]],
        "Mock Data": [[("Throw Error", 0), ("Throw Error2", 0), ("Throw Error1", 0), ("Throw Error3", 0)]],
        "Throw Error": [[("Success", 0)], [("Error", 0)]],
        "Throw Error2": [[("Combined1", 0)]],
        "Throw Error1": [[("Combined", 0)]],
        "Throw Error3": [[("Success1", 0)], [("Error1", 0)]],
        "Edit Fields": [[("Success2", 0)], [("Error2", 0)]],
        "Error1": [[("Edit Fields", 0)]],
    }
    ok = [_item({**p, "myNewField": 1, "originalName": p["name"]}, None) for p in PEOPLE if p["country"] != "US"]
    failed = {0: PEOPLE[0], 2: PEOPLE[2]}
    # n8n's fixture pins "[line 5, for item i]"; n8n 2.8.4 and 2.41.1 say "[line 5]" (recorded: c019, c021)
    error_items = [
        _item({**p, "error": "This is an error [line 5]", "originalName": p["name"]}, None) for i, p in failed.items()
    ]
    combined = [
        _item({"error": "This is an error [line 5]", "originalName": p["name"]}, None)
        if i in failed
        else _item({**p, "myNewField": 1, "originalName": p["name"]}, None)
        for i, p in enumerate(PEOPLE)
    ]
    expected = {
        "Combined": combined, "Combined1": combined, "Success1": ok, "Error1": error_items,
        "Success2": error_items, "Error": error_items, "Success": ok,
    }  # fmt: skip
    return _workflow("My workflow 105", nodes, connections, executionOrder="v1"), expected


# --------------------------------------------------------------------------- paired_items_fix.json


def _code_v1(name: str, position: tuple[int, int], js: str) -> dict[str, Any]:
    return n(name, "code", position, {"jsCode": js}, 1)


_PAIR_ZERO = (
    "// Loop over input items and add a new field called 'myNewField' to the JSON of each one\nconst data = [];\n"
    "for (const [index, entry] of $input.all().entries()) {\n  entry.json.myNewField = index;\n"
    "  entry.pairedItem = 0;\n  data.push(entry);\n}\n\nreturn data;"
)
_CHECK_WITH_ORIGINAL = {
    "keepOnlySet": True,
    "values": {
        "string": [
            {"name": "=nameOriginalItem", "value": "={{ $('cuctomers').item.json.name }}"},
            {"name": "name", "value": "={{ $json.name }}"},
        ],
        "boolean": [{"name": "test", "value": "={{ $('cuctomers').item.json.id === $json.id  }}"}],
    },
    "options": {},
}


def paired_items_fix() -> Fixture:
    """Substitutions (Weft has no such node types): the fixture's ``function`` v1 nodes ("Generate new items",
    "Mix up pairing") are Code v1 nodes with the same JavaScript, and ``cuctomers`` (the training customer
    datastore, ``getAllPeople``) is a Code v1 node returning the datastore's five people."""
    trigger = 'When clicking "Execute Workflow"'
    nodes = [
        set_v1("Set", (500, 680), options=True, string=[("setting", "hello")]),
        n("IF", "if", (1080, 500), {"conditions": {"boolean": [{"value1": True}]}}, alwaysOutputData=True),
        n("Set1", "set", (1340, 480), {"values": {"string": [{"value": "={{ $('Set').item.json }}"}]}, "options": {}},
          2),
        n(trigger, "manualTrigger", (200, 980)),
        _code_v1("Code", (840, 500), "return [\n  {\n    'thing': 1,\n    'letter': 'a'\n  },\n  {\n    'thing': 2,"
                 "\n    'letter': 'b'\n  },\n  {\n    'thing': 3,\n    'letter': 'c'\n  }\n]"),
        _code_v1("Generate new items", (840, 860), "return [\n  {\n    'number': 1,\n    'letter': 'a'\n  },\n  {\n"
                 "    'number': 2,\n    'letter': 'b'\n  },\n  {\n    'number': 3,\n    'letter': 'c'\n  }\n]"),
        set_v1("Set3", (1320, 860), version=2, options=True,
               number=[("numberOriginal", "={{ $('Generate new items').item.json.number }}")],
               string=[("letterOriginal", "={{ $('Generate new items').item.json.letter }}")]),
        _code_v1("Mix up pairing", (1080, 860), "return [\n  {\n    'json': {\n      'originalItem': 'third'\n    },\n"
                 "    'pairedItem': 2\n  },\n  {\n    'json': {\n      'originalItem': 'first'\n    },\n"
                 "    'pairedItem': 0\n  },\n  {\n    'json': {\n      'originalItem': 'second'\n    },\n"
                 "    'pairedItem': 1\n  }\n]"),
        _sticky("Sticky Note1", (780, 400),
                "### Always output data & multiple possible output resolve which are identical", 258, 855),
        _code_v1("cuctomers", (640, 1340), _js_people()),
        n("result", "set", (1380, 1180), {"options": {}}, 2, alwaysOutputData=True),
        _code_v1("changePairedindex", (920, 1180), _PAIR_ZERO),
        n("checkWithOriginal", "set", (1140, 1180), _CHECK_WITH_ORIGINAL, 2),
        n("loop", "splitInBatches", (920, 1420), {"options": {}}, 2),
        n("testAfterLoop", "set", (1180, 1620), _CHECK_WITH_ORIGINAL, 2),
        n("result1", "set", (1380, 1620), {"options": {}}, 2, alwaysOutputData=True),
        _code_v1("changePairedindex1", (1380, 1400), _PAIR_ZERO),
    ]  # fmt: skip
    connections = {
        "Set": [[("Code", 0), ("Generate new items", 0)]],
        "IF": [[("Set1", 0)]],
        trigger: [[("Set", 0), ("cuctomers", 0)]],
        "Code": [[("IF", 0)]],
        "Generate new items": [[("Mix up pairing", 0)]],
        "Mix up pairing": [[("Set3", 0)]],
        "cuctomers": [[("changePairedindex", 0), ("loop", 0)]],
        "changePairedindex": [[("checkWithOriginal", 0)]],
        "checkWithOriginal": [[("result", 0)]],
        "loop": [[("changePairedindex1", 0)], [("testAfterLoop", 0)]],
        "testAfterLoop": [[("result1", 0)]],
        "changePairedindex1": [[("loop", 0)]],
    }
    third, first, second = (
        {"originalItem": o, "numberOriginal": num, "letterOriginal": let}
        for o, num, let in (("third", 3, "c"), ("first", 1, "a"), ("second", 2, "b"))
    )
    gatsby = [
        _item({"test": i == 0, "nameOriginalItem": "Jay Gatsby", "name": p["name"]}, i) for i, p in enumerate(PEOPLE)
    ]
    expected = {
        "Set3": [_item(third, 0), _item(first, 1), _item(second, 2)],
        "Set1": [_item({"propertyName": {"setting": "hello"}}, 0)],
        "result": gatsby,
        "result1": gatsby,
    }
    # the fixture has no `executionOrder`: n8n then runs the legacy order (`executionOrder !== "v1"`)
    return _workflow("paired items fix", nodes, connections, executionOrder="v0"), expected
