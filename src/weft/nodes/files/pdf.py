"""Text and metadata of a PDF (n8n's ``extractDataFromPDF``), read with pypdf where n8n uses pdf.js.

The shape is n8n's: ``numpages``, ``numrender``, ``info`` (pdf.js's document facts — ``PDFFormatVersion``,
``Language``, ``EncryptFilterName``, ``IsLinearized``, ``IsAcroFormPresent``, ``IsXFAPresent``,
``IsCollectionPresent``, ``IsSignaturesPresent`` — then the Info dictionary's entries), ``text`` (pages joined by
a blank line, or a list of pages) and ``version``. Text is put together as n8n does: pieces on one baseline
joined, a new baseline on a new line; ``metadata`` (when the file has XMP) as pdf.js's metadata parser reads it.
Differences (documented): the layout of complex pages can differ from pdf.js's, and ``version`` is the pdf.js
version n8n 2.41.1 reports.
"""

from __future__ import annotations

import io
from typing import Any

#: What n8n 2.41.1's pdf.js reports as ``version``.
PDFJS_VERSION = "5.4.296"
_FACTS = ("Title", "Author", "Subject", "Keywords", "Creator", "Producer", "CreationDate", "ModDate", "Trapped")


class PdfError(Exception):
    """The PDF cannot be read (pdf.js's words where they are known)."""

    def __init__(self, message: str, description: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.description = description


def _page_text(page: Any) -> str:
    parts: list[str] = []
    last_y: list[float | None] = [None]

    def visit(text: str, cm: list[float], tm: list[float], *_: Any) -> None:
        text = text.rstrip("\n")  # pypdf ends a piece with the line break pdf.js leaves to the baseline
        if not text:
            return
        y = tm[4] * cm[1] + tm[5] * cm[3] + cm[5]
        parts.append(text if last_y[0] is None or last_y[0] == y or not last_y[0] else "\n" + text)
        last_y[0] = y

    page.extract_text(visitor_text=visit)
    return "".join(parts)


def _info(reader: Any) -> dict[str, Any]:
    root = reader.trailer["/Root"]
    acro = root.get("/AcroForm")
    info: dict[str, Any] = {
        "PDFFormatVersion": reader.pdf_header.removeprefix("%PDF-"),
        "Language": str(root["/Lang"]) if "/Lang" in root else None,
        "EncryptFilterName": str(reader.trailer["/Encrypt"].get("/Filter", "")).lstrip("/") or None
        if "/Encrypt" in reader.trailer
        else None,
        "IsLinearized": False,
        "IsAcroFormPresent": acro is not None,
        "IsXFAPresent": acro is not None and "/XFA" in acro.get_object(),
        "IsCollectionPresent": "/Collection" in root,
        "IsSignaturesPresent": bool(acro is not None and int(acro.get_object().get("/SigFlags", 0)) & 1),
    }
    custom: dict[str, Any] = {}
    for key, value in (reader.trailer.get("/Info") or {}).items():
        name = key.lstrip("/")
        text = str(value.get_object()).lstrip("/") if name == "Trapped" else str(value.get_object())
        if name in _FACTS:
            info[name] = {"name": text} if name == "Trapped" else text
        else:
            custom[name] = text
    if custom:
        info["Custom"] = custom
    return info


def _children(node: Any) -> list[Any]:
    """pdf.js's XML children: elements and text, whitespace-only text dropped."""
    kept = []
    for child in node.childNodes:
        if child.nodeType in (child.TEXT_NODE, child.CDATA_SECTION_NODE):
            if child.data.strip():
                kept.append(child)
        elif child.nodeType == child.ELEMENT_NODE:
            kept.append(child)
    return kept


def _text(node: Any) -> str:
    if node.nodeType in (node.TEXT_NODE, node.CDATA_SECTION_NODE):
        return str(node.data)
    return "".join(_text(child) for child in _children(node))


def _name(node: Any) -> str:
    return str(node.tagName).lower() if node.nodeType == node.ELEMENT_NODE else "#text"


def xmp_metadata(xml: str) -> dict[str, Any]:
    """pdf.js's ``MetadataParser``: each ``rdf:Description`` child by its lower-cased name, its trimmed text (for
    ``dc:creator`` and ``dc:subject`` the items of their ``rdf:Bag``/``Seq``/``Alt``); ``{}`` for bad XML."""
    from xml.dom import minidom
    from xml.parsers.expat import ExpatError

    try:
        root = minidom.parseString(xml[xml.find("<") :] if "<" in xml else xml).documentElement
    except (ExpatError, ValueError):
        return {}
    rdf = root if _name(root) == "rdf:rdf" else next((c for c in _children(root) if _name(c) == "rdf:rdf"), None)
    out: dict[str, Any] = {}
    for description in _children(rdf) if rdf is not None else []:
        if _name(description) != "rdf:description":
            continue
        for entry in _children(description):
            name = _name(entry)
            if name == "#text":
                continue
            if name in ("dc:creator", "dc:subject"):
                items = _children(entry)
                if items:
                    sequence = items[0] if _name(items[0]) in ("rdf:bag", "rdf:seq", "rdf:alt") else None
                    lis = [li for li in _children(sequence) if _name(li) == "rdf:li"] if sequence is not None else []
                    out[name] = [_text(li).strip() for li in lis]
                continue
            out[name] = _text(entry).strip()
    return out


def _metadata(reader: Any) -> dict[str, Any] | None:
    stream = reader.trailer["/Root"].get("/Metadata")
    if stream is None:
        return None
    stream = stream.get_object()
    if stream.get("/Type") != "/Metadata" or stream.get("/Subtype") != "/XML":
        return None
    text = stream.get_data().decode("utf-8", "replace")
    return xmp_metadata(text) if text else None


def _open(data: bytes, password: str | None) -> Any:
    from pypdf import PdfReader
    from pypdf.errors import PdfReadError

    try:
        reader = PdfReader(io.BytesIO(data))
    except (PdfReadError, ValueError, KeyError) as error:
        raise PdfError("Invalid PDF structure.", description=f"The file is not a readable PDF ({error}).") from error
    if reader.is_encrypted:
        if not password:
            raise PdfError("No password given")
        if not reader.decrypt(password):
            raise PdfError("Incorrect Password")
    return reader


def extract_pdf(data: bytes, *, password: str | None, max_pages: int | None, join_pages: bool = True) -> dict[str, Any]:
    """n8n's result of reading a PDF (blocking: run it off the event loop)."""
    reader = _open(data, password)
    try:
        count = len(reader.pages)
        pages: list[str] = []
        if max_pages != 0:
            to_read = max_pages if max_pages and max_pages < count else count
            pages = [_page_text(reader.pages[i]) for i in range(to_read)]
        info = _info(reader)
        metadata = _metadata(reader)
    except Exception as error:  # a damaged file: pypdf's many exception types, at the library's edge
        raise PdfError("Invalid PDF structure.", description=f"The file is not a readable PDF ({error}).") from error
    return {
        "numpages": count,
        "numrender": count,
        "info": info,
        **({"metadata": metadata} if metadata is not None else {}),
        "text": "\n\n".join(pages) if join_pages else pages,
        "version": PDFJS_VERSION,
    }


__all__ = ["PDFJS_VERSION", "PdfError", "extract_pdf"]
