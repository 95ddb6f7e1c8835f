"""html-to-text 9's conversion (the HTML node 1.2's "Text"): expected texts are what html-to-text 9.0.5 printed."""

from __future__ import annotations

import pytest

from weft.library.core._html_text import html_to_text

CASES = [
    ("<ul><li>a<ul><li>b</li><li>c</li></ul></li><li>d</li></ul>", " * a\n   * b\n   * c\n * d"),
    (
        "<p>" + "word " * 30 + "</p>",
        " ".join(["word"] * 16) + "\n" + " ".join(["word"] * 14),
    ),
    ("<blockquote><p>one</p><p>two</p></blockquote>", "> one\n> \n> two"),
    ("<table><tr><th>H1</th><th>H2</th></tr><tr><td>a</td><td>b</td></tr></table>", "H1H2ab"),
    ('<h2>Title <a href="/x">link</a></h2><p>after</p>', "TITLE LINK [/x]\n\nafter"),
    (
        '<a href="#top">top</a> <a href="mailto:a@b.c">mail</a> <a>nohref</a> <a href="/only"></a>',
        "top mail [a@b.c] nohref /only",
    ),
    ('<ol start="9"><li>nine</li><li>ten</li></ol>', " 9.  nine\n 10. ten"),
    ('<ol type="i" start="3"><li>three</li><li>four</li></ol>', " iii. three\n iv.  four"),
    ('<img src="i.png"><img alt="only alt">', "[i.png]only alt"),
    ("<pre>code\n  indented</pre><p>x</p>", "code\n  indented\n\nx"),
    ("<h4>four</h4><h5>five</h5>text", "FOUR\n\nFIVE\n\ntext"),
    ("<div>block</div>inline after<p>para</p> tail", "block\ninline after\n\npara\n\ntail"),
    ("<ul>\n  <li>a</li>\n  <!-- c -->\n  <li>b</li>\n</ul>", " * a\n   \n * b"),
    (
        "<hr><p>after hr</p>",
        "--------------------------------------------------------------------------------\n\nafter hr",
    ),
    ("<p>é &amp; &lt;b&gt; &nbsp; x</p>", "é & <b> \xa0 x"),
]


@pytest.mark.parametrize(("html", "expected"), CASES)
def test_html_to_text(html: str, expected: str) -> None:
    assert html_to_text(html) == expected


def test_skip_selectors() -> None:
    html = '<div><p>keep</p><div class="ad">ADVERT</div><a href="/x">link</a> end</div>'
    assert html_to_text(html, ("div.ad", "a")) == "keep\n\nend"
