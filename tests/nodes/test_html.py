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


LIST = '<ul><li class="a">one</li><li>two</li><li class="a">three</li><li>four</li></ul><p>Say hello</p><p>Bye</p>'


async def test_cheerio_selector_extensions(run_node, js):
    values = [
        {"key": "first", "cssSelector": "li:first"},
        {"key": "eq", "cssSelector": "li:eq(2)"},
        {"key": "gt", "cssSelector": "li:gt(1)", "returnArray": True},
        {"key": "odd", "cssSelector": "li:odd", "returnArray": True},
        {"key": "contains", "cssSelector": 'p:contains("hello")'},
        {"key": "cls", "cssSelector": "li.a:last"},
        {"key": "group", "cssSelector": "p:first, li:first", "returnArray": True},
    ]
    params = {"operation": "extractHtmlContent", "extractionValues": {"values": values}, "options": {}}
    run = await run_node("html", params, [{"data": LIST}], version=1.1)
    assert js(run) == [
        {
            "first": "one",
            "eq": "three",
            "gt": ["three", "four"],
            "odd": ["two", "four"],
            "contains": "Say hello",
            "cls": "three",
            "group": ["one", "Say hello"],
        }
    ]


async def test_bad_selector_names_the_fix(run_node):
    params = {"operation": "extractHtmlContent", "extractionValues": {"values": [{"key": "k", "cssSelector": "p["}]}}
    run = await run_node("html", params, [{"data": "<p>x</p>"}], version=1.2)
    error = run["data"]["resultData"]["error"]
    assert "'p['" in error["message"] and "CSS Selector" in error["description"]


async def test_values_of_form_fields(run_node, js):
    html = (
        '<select id="m" multiple><option value="a" selected>A</option><option selected>B</option></select>'
        '<select id="s"><option value="1">One</option><option value="2">Two</option></select>'
        '<input id="i" value="v" disabled><textarea id="t">T &lt;x&gt;</textarea>'
    )
    values = [{"key": k, "cssSelector": "#" + k, "returnValue": "value"} for k in ("m", "s", "i", "t")]
    values.append({"key": "d", "cssSelector": "#i", "returnValue": "attribute", "attribute": "disabled"})
    params = {"operation": "extractHtmlContent", "extractionValues": {"values": values}, "options": {}}
    run = await run_node("html", params, [{"data": html}], version=1.2)
    assert js(run) == [{"m": "A,B", "s": "1", "i": "v", "t": "T <x>", "d": "disabled"}]


async def test_template_values_are_javascript_strings(run_node, js):
    template = "{{ $json.nope }}|{{ $json.o }}|{{ $json.a }}|{{ $json.price }}|{{ '$&' }}"
    run = await run_node("html", {"html": template}, [{"o": {"x": 1}, "a": [1, [2, 3]], "price": "$5"}], version=1.2)
    assert js(run) == [{"html": "undefined|[object Object]|1,2,3|$5|{{ '$&' }}"}]


async def test_long_document_is_extracted(run_node, js):
    html = "<ul>" + "".join(f"<li>item {i}</li>" for i in range(8000)) + "</ul>"
    values = [{"key": "n", "cssSelector": "li", "returnArray": True}, {"key": "last", "cssSelector": "li:last"}]
    params = {"operation": "extractHtmlContent", "extractionValues": {"values": values}, "options": {}}
    run = await run_node("html", params, [{"data": html}], version=1.1)
    assert len(js(run)[0]["n"]) == 8000 and js(run)[0]["last"] == "item 7999"


async def test_template_default_is_n8ns_placeholder(run_node, js):
    from weft.library.core.html import PLACEHOLDER

    run = await run_node("html", {}, [{}], version=1.2)
    assert js(run) == [{"html": PLACEHOLDER}] and PLACEHOLDER.startswith("<!DOCTYPE html>")
