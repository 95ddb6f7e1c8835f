"""HTML and HTML Extract: templates, extraction with cheerio's semantics, tables."""

from __future__ import annotations

PAGE = (
    '<html><body><h1 class="t"> Hi  there </h1><ul><li><a href="/a">A</a></li><li><a href="/b">B</a></li></ul>'
    '<input name="q" value="v"><p>One<br>Two</p><script>x()</script></body></html>'
)
VALUES = {
    "values": [
        {"key": "title", "cssSelector": "h1", "returnValue": "text"},
        {"key": "links", "cssSelector": "a", "returnValue": "attribute", "attribute": "href", "returnArray": True},
        {"key": "list", "cssSelector": "ul", "returnValue": "html"},
        {"key": "q", "cssSelector": "input", "returnValue": "value"},
        {"key": "p", "cssSelector": "p", "returnValue": "text"},
        {"key": "none", "cssSelector": ".missing", "returnValue": "html"},
    ]
}


async def test_extract_v1_2_text_is_html_to_text(run_node, js):
    params = {"operation": "extractHtmlContent", "extractionValues": VALUES, "options": {}}
    run = await run_node("html", params, [{"data": PAGE}], version=1.2)
    assert js(run) == [
        {
            "title": "Hi there",
            "links": ["/a", "/b"],
            "list": '<li><a href="/a">A</a></li><li><a href="/b">B</a></li>',
            "q": "v",
            "p": "One\nTwo",
        }
    ]


async def test_extract_v1_1_text_options_and_legacy_node(run_node, js):
    params = {"operation": "extractHtmlContent", "extractionValues": VALUES, "options": {"cleanUpText": True}}
    run = await run_node("html", params, [{"data": PAGE}], version=1.1)
    assert js(run)[0]["title"] == "Hi there" and js(run)[0]["p"] == "OneTwo"
    run = await run_node("htmlExtract", {"extractionValues": VALUES}, [{"data": PAGE}])
    assert js(run)[0]["title"] == "Hi  there"


async def test_extract_missing_field_error_and_continue(run_node, out):
    params = {"operation": "extractHtmlContent", "dataPropertyName": "page", "extractionValues": VALUES}
    run = await run_node("html", params, [{"x": 1}], version=1.2)
    assert run["data"]["resultData"]["error"]["message"] == 'No property named "page" exists!'
    run = await run_node("html", params, [{"x": 1}], version=1.2, onError="continueRegularOutput")
    assert out(run) == [[{"json": {"error": 'No property named "page" exists!'}, "pairedItem": {"item": 0}}]]


async def test_template_and_table(run_node, js, out):
    run = await run_node("html", {"html": "<b>{{ $json.n * 2 }}</b>{{ $json.n }}"}, [{"n": 2}], version=1.2)
    assert js(run) == [{"html": "<b>4</b>2"}]
    params = {"operation": "convertToHtmlTable", "options": {"customStyling": True, "capitalize": True}}
    run = await run_node("html", params, [{"first_name": "A", "ok": True}, {"first_name": "B"}], version=1.2)
    assert out(run)[0][0]["json"]["table"] == (
        "<table  ><thead  ><tr><th>First Name</th><th>Ok</th></tr></thead><tbody><tr  ><td  >A</td>"
        '<td  ><input type="checkbox" checked="checked"/></td></tr><tr  ><td  >B</td><td  >undefined</td></tr>'
        "</tbody></table>"
    )
    assert out(run)[0][0]["pairedItem"] == [{"item": 0}, {"item": 1}]
