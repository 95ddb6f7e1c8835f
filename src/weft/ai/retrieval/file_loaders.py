"""Documents from a file's bytes, per format, as LangChain's loaders make them in n8n's Default Data Loader.

Text (``TextLoader``), JSON (``JSONLoader``), CSV (``CSVLoader`` on d3-dsv), DOCX (``DocxLoader``: mammoth's raw
text; Weft uses the Python port of mammoth by the same author) and PDF (one document per page, or joined; read
with pypdf as Weft's Extract from File does, where n8n uses pdf.js). EPUB files are not read (documented).
"""

from __future__ import annotations

import asyncio
import io
from typing import Any

from weft.ai.retrieval._js_text import js_keys, js_trim
from weft.ai.retrieval.documents import Document
from weft.ai.retrieval.dsv import parse
from weft.ai.retrieval.errors import DocumentLoadError
from weft.ai.retrieval.json_loader import blob_metadata, json_documents, parse_pointers, text_documents


def decode_text(data: bytes) -> str:
    """``Blob.text()``: UTF-8, a leading byte-order mark dropped, bad bytes replaced."""
    return data.decode("utf-8-sig", "replace")


def text_file(data: bytes, mime_type: str) -> list[Document]:
    return text_documents([decode_text(data)], mime_type)


def json_file(data: bytes, mime_type: str, pointers: str) -> list[Document]:
    return json_documents(decode_text(data), parse_pointers(pointers), mime_type)


def csv_file(data: bytes, mime_type: str, *, column: str | None, separator: str) -> list[Document]:
    """``CSVLoader``: a document per row, ``key: value`` lines, or one column's values."""
    columns, rows = parse(js_trim(decode_text(data)), separator)
    if column is not None:
        if column not in columns:
            raise DocumentLoadError(
                f"Column {column} not found in CSV file.",
                description=f"The CSV's columns are {', '.join(columns) or 'none'}; correct the 'CSV Column' option.",
            )
        texts = [row[column] for row in rows]
    else:
        texts = ["\n".join(f"{js_trim(key)}: {js_trim(row[key])}" for key in js_keys(row)) for row in rows]
    return text_documents(texts, mime_type)


def docx_file(data: bytes, mime_type: str) -> list[Document]:
    """``DocxLoader``: mammoth's raw text as one document (none when the text is empty)."""
    import mammoth

    try:
        text = mammoth.extract_raw_text(io.BytesIO(data)).value
    except Exception as error:  # a damaged file: zipfile's and mammoth's many exception types
        raise DocumentLoadError(
            "The file is not a readable Word document (.docx)",
            description=f"{type(error).__name__}: {error}",
        ) from error
    return [Document(page_content=text, metadata=blob_metadata(mime_type))] if text else []


def pdf_file(data: bytes, mime_type: str, *, split_pages: bool) -> list[Document]:
    """n8n 2.41's ``N8nPdfLoader``: a document per page with text (``loc.pageNumber``), or all pages joined by a
    blank line; ``metadata.pdf`` holds the document's info and page count."""
    from weft.nodes.files.pdf import PdfError, extract_pdf

    try:
        result = extract_pdf(data, password=None, max_pages=None, join_pages=False)
    except PdfError as error:
        raise DocumentLoadError(error.message, description=error.description) from error
    pdf: dict[str, Any] = {"info": result["info"], "metadata": result.get("metadata"), "totalPages": result["numpages"]}
    base = blob_metadata(mime_type)
    pages = [
        Document(page_content=text, metadata={**base, "pdf": pdf, "loc": {"pageNumber": number}})
        for number, text in enumerate(result["text"], start=1)
    ]
    if split_pages:
        return pages
    if not pages:
        return []
    return [Document(page_content="\n\n".join(p.page_content for p in pages), metadata={**base, "pdf": pdf})]


async def load_file(data: bytes, mime_type: str, options: dict[str, Any]) -> list[Document]:
    """The documents of a file by its mime type (n8n's ``getLoader``); blocking parsers run in a thread."""
    if mime_type == "application/pdf":
        return await asyncio.to_thread(pdf_file, data, mime_type, split_pages=bool(options.get("splitPages", False)))
    if mime_type == "text/csv":
        return csv_file(data, mime_type, column=options.get("column"), separator=str(options.get("separator", ",")))
    if mime_type == "application/epub+zip":
        raise DocumentLoadError(
            "EPUB files are not supported by Weft's Default Data Loader",
            description="Convert the book to text or PDF first, or use n8n for EPUB files.",
        )
    if mime_type == "application/vnd.openxmlformats-officedocument.wordprocessingml.document":
        return await asyncio.to_thread(docx_file, data, mime_type)
    if mime_type == "application/json":
        return json_file(data, mime_type, str(options.get("pointers", "")))
    return text_file(data, mime_type)


__all__ = ["csv_file", "decode_text", "docx_file", "json_file", "load_file", "pdf_file", "text_file"]
