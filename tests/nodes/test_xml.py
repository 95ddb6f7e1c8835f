"""XML node: xml2js's shapes both ways, and a parser that refuses entity bombs and external entities."""

from __future__ import annotations

import pytest

BOMB = (
    '<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;">'
    '<!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;"><!ENTITY lol4 "&lol3;&lol3;&lol3;&lol3;&lol3;">]>'
    "<lolz>&lol4;</lolz>"
)


async def test_xml_to_json_defaults_merge_attributes(run_node, js):
    xml = '<a x="1"><b>t</b><b>u</b><c y="2">v</c><d/></a>'
    run = await run_node("xml", {}, [{"data": xml}])
    assert js(run) == [{"a": {"x": "1", "b": ["t", "u"], "c": {"_": "v", "y": "2"}, "d": ""}}]


async def test_xml_to_json_options(run_node, js):
    options = {"explicitArray": True, "mergeAttrs": False, "explicitRoot": False, "attrkey": "@", "trim": True}
    run = await run_node("xml", {"options": options}, [{"data": '<A k="v"> x <B>1</B></A>'}])
    assert js(run) == [{"_": "x", "@": {"k": "v"}, "B": ["1"]}]


async def test_json_to_xml_pretty_with_attributes(run_node, js):
    item = {"order": {"$": {"id": 7}, "line": [{"sku": "a"}, {"sku": "b"}], "note": "x & y"}}
    run = await run_node("xml", {"mode": "jsonToxml"}, [item])
    assert js(run)[0]["data"] == (
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<order id="7">\n  <line>\n    <sku>a</sku>\n'
        "  </line>\n  <line>\n    <sku>b</sku>\n  </line>\n  <note>x &amp; y</note>\n</order>"
    )


async def test_json_to_xml_headless_root_name_and_cdata(run_node, js):
    params = {
        "mode": "jsonToxml",
        "dataPropertyName": "x",
        "options": {"headless": True, "rootName": "r", "cdata": True},
    }
    run = await run_node("xml", params, [{"a": "<b>"}])
    assert js(run) == [{"x": "<r>\n  <a><![CDATA[<b>]]></a>\n</r>"}]


@pytest.mark.parametrize(
    ("xml", "message"),
    [
        (BOMB, "Invalid character entity\nLine: 0\nColumn: "),
        ('<!DOCTYPE f [<!ENTITY x SYSTEM "file:///etc/passwd">]><f>&x;</f>', "Invalid character entity\nLine: 0"),
        ("<a><b>t</a>", "Unexpected close tag\nLine: 0\nColumn: 11\nChar: >"),
        ("<a>", "Unclosed root tag\nLine: 0\nColumn: 3\nChar: "),
    ],
)
async def test_attacks_and_broken_xml_fail_without_expanding(run_node, xml, message):
    run = await run_node("xml", {}, [{"data": xml}])
    error = run["data"]["resultData"]["error"]
    assert error["message"].startswith(message)
    assert "root:" not in str(run)  # /etc/passwd was not read
    assert "lollol" not in str(run)  # the bomb did not grow


async def test_missing_property_and_forbidden_key(run_node):
    run = await run_node("xml", {}, [{"other": 1}])
    assert run["data"]["resultData"]["error"]["message"] == 'Item has no JSON property called "data"'
    run = await run_node("xml", {"options": {"charkey": "__proto__"}}, [{"data": "<a/>"}])
    assert (
        run["data"]["resultData"]["error"]["message"] == 'The "Character Key" option value "__proto__" is not allowed'
    )


async def test_dangerous_names_are_sanitized(run_node, js):
    run = await run_node("xml", {}, [{"data": '<a __proto__="1"><constructor>x</constructor></a>'}])
    assert js(run) == [{"a": {"sanitized___proto__": "1", "sanitized_constructor": "x"}}]


async def test_continue_drops_the_failing_item_as_n8n(run_node, js):
    run = await run_node("xml", {}, [{"data": "<a>1</a>"}, {"data": "<a>"}], onError="continueRegularOutput")
    assert js(run) == [{"a": "1"}]


async def test_long_document_is_parsed(run_node, js):
    xml = "<r>" + "".join(f'<i n="{n}">v{n}</i>' for n in range(6000)) + "</r>"
    run = await run_node("xml", {}, [{"data": xml}])
    items = js(run)[0]["r"]["i"]
    assert len(items) == 6000 and items[-1] == {"_": "v5999", "n": "5999"}


async def test_entities_comments_and_cdata(run_node, js):
    xml = '<a t="&lt;&#x41;&amp;">x&copy;<!-- c --><![CDATA[<raw>]]>&#65;<b/></a>'
    run = await run_node("xml", {}, [{"data": xml}])
    assert js(run) == [{"a": {"_": "x©<raw>A", "t": "<A&", "b": ""}}]
