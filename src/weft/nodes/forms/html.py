"""What a form page may contain of the author's HTML and CSS: n8n's ``sanitizeHtml`` and ``sanitizeCustomCss``.

Descriptions, completion messages and ``html`` fields keep n8n's allow-list of tags and attributes
(``sanitize-html`` there, ammonia through ``nh3`` here): no scripts, no event handlers, only ``http(s)`` links, and
every ``iframe`` sandboxed. Custom CSS loses every tag (and the content of ``script``/``style``/``textarea``/
``option``/``noscript``); its text is escaped, then ``&gt;`` and ``&amp;`` are restored as n8n does, never ``&lt;``,
so it can never close the page's ``<style>`` element.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from urllib.parse import urlsplit

import nh3

_TAGS = {
    "b", "div", "i", "iframe", "img", "video", "source", "em", "strong", "a", "h1", "h2", "h3", "h4", "h5", "h6",
    "u", "sub", "sup", "code", "pre", "span", "br", "ul", "ol", "li", "p", "table", "thead", "tbody", "tfoot",
    "td", "tr", "th",
}  # fmt: skip
_ATTRIBUTES = {
    "a": {"href", "target", "rel"},
    "img": {"src", "alt", "width", "height"},
    "video": {"controls", "autoplay", "loop", "muted", "poster", "width", "height"},
    "iframe": {"src", "width", "height", "frameborder", "allowfullscreen"},
    "source": {"src", "type"},
    "td": {"colspan", "rowspan", "scope", "headers"},
    "th": {"colspan", "rowspan", "scope", "headers"},
}
_IFRAME = {
    "sandbox": "",
    "referrerpolicy": "strict-origin-when-cross-origin",
    "allow": "fullscreen; autoplay; encrypted-media",
}
_DROPPED_CONTENT = {"script", "style", "textarea", "option", "noscript"}


def sanitize_html(text: str) -> str:
    """n8n's ``sanitizeHtml`` allow-list (the description, ``html`` fields, the completion message)."""
    return nh3.clean(
        text,
        tags=_TAGS,
        attributes=_ATTRIBUTES,
        url_schemes={"http", "https"},
        link_rel=None,
        set_tag_attribute_values={"iframe": dict(_IFRAME)},
        strip_comments=True,
    )


class _TextOnly(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self._skip = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _DROPPED_CONTENT:
            self._skip += 1

    def handle_endtag(self, tag: str) -> None:
        if tag in _DROPPED_CONTENT and self._skip:
            self._skip -= 1

    def handle_data(self, data: str) -> None:
        if not self._skip:
            self.parts.append(data.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;"))


def sanitize_custom_css(css: str | None) -> str | None:
    """n8n's ``sanitizeCustomCss``: tags stripped, text escaped, ``>`` and plain ``&`` restored."""
    if not css:
        return None
    parser = _TextOnly()
    parser.feed(css)
    parser.close()
    sanitized = "".join(parser.parts)
    return re.sub(r"&amp;(?!(?:lt|gt|amp);)", "&", sanitized.replace("&gt;", ">"))


def handle_newlines(text: str) -> str:
    """n8n's ``handleNewlines``: the two characters ``\\n`` become a newline (``\\\\n`` stays ``\\n``)."""
    return re.sub(r"\\\\n|\\n", lambda m: "\\n" if m.group(0) == "\\\\n" else "\n", text)


def description_metadata(description: str) -> str:
    """n8n's ``createDescriptionMetadata``: the description without tags, 150 characters (``n8n form`` if empty)."""
    if description == "":
        return "n8n form"
    return re.sub(r"^\s*\n+|</?[^>]+(>|$)", "", description)[:150]


def safe_redirect_url(url: str | None) -> str | None:
    """n8n's ``validateSafeRedirectUrl``: an absolute ``http(s)`` URL, else ``None``."""
    text = (url or "").strip()
    if not text:
        return None
    try:
        parts = urlsplit(text)
    except ValueError:
        return None
    if parts.scheme.lower() not in ("http", "https") or not parts.netloc:
        return None
    return text


__all__ = ["description_metadata", "handle_newlines", "safe_redirect_url", "sanitize_custom_css", "sanitize_html"]
