"""Markdown: showdown and node-html-markdown, run in the sandbox (recorded: n485-n489)."""

from __future__ import annotations

from weft.library.core.markdown import bundle


def test_the_bundle_reads_no_legacy_regexp_statics():
    assert "RegExp.$" not in bundle()


async def test_markdown_to_html_with_showdown_and_its_options(run_node, js):
    md = [{"md": "# Head\n\n~~x~~ *y*\n\n| a |\n|---|\n| 1 |"}]
    run = await run_node("markdown", {"mode": "markdownToHtml", "markdown": "={{ $json.md }}"}, md)
    assert js(run)[0]["data"] == '<h1 id="head">Head</h1>\n<p>~~x~~ <em>y</em></p>\n<p>| a |\n|---|\n| 1 |</p>'
    options = {"strikethrough": True, "tables": True, "noHeaderId": True}
    params = {"mode": "markdownToHtml", "markdown": "={{ $json.md }}", "options": options, "destinationKey": "a.b"}
    html = js(await run_node("markdown", params, md))[0]["a"]["b"]
    assert html.startswith("<h1>Head</h1>\n<p><del>x</del> <em>y</em></p>\n<table>")


async def test_html_to_markdown_with_options(run_node, js):
    html = [{"h": "<h2>T</h2><ul><li><b>x</b></li></ul><script>s()</script><p>a_b</p>"}]
    run = await run_node("markdown", {"html": "={{ $json.h }}"}, html)
    assert js(run)[0]["data"] == "## T\n\n* **x**\n\na\\_b"
    params = {"html": "={{ $json.h }}", "options": {"bulletMarker": "-", "strongDelimiter": "__", "ignore": "p"}}
    # node-html-markdown 1.2.0 (in Node.js too) does not drop a lower-case "p" given as `ignore`
    assert js(await run_node("markdown", params, html))[0]["data"] == "## T\n\n- __x__\n\na\\_b"


async def test_a_value_that_is_not_text_is_an_item_error(run_node, out):
    params = {"mode": "markdownToHtml", "markdown": "={{ 5 }}"}
    run = await run_node("markdown", params, [{"n": 1}], onError="continueRegularOutput")
    assert "error" in out(run)[0][0]["json"]
    run = await run_node("markdown", params, [{"n": 1}])
    assert run["data"]["resultData"]["error"]["message"]
