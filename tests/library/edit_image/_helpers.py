"""Running Edit Image nodes through the real engine on images made with Pillow."""

from __future__ import annotations

import base64
import io
import itertools
from typing import Any

from PIL import Image

from weft.engine import run_workflow

BASE = "n8n-nodes-base."


def png(width: int, height: int, color: tuple[int, ...] = (0, 0, 255, 255), fmt: str = "PNG") -> bytes:
    out = io.BytesIO()
    mode = "RGBA" if fmt in ("PNG", "WEBP", "TIFF") else "RGB"
    Image.new(mode, (width, height), color[: len(mode)]).save(out, format=fmt)
    return out.getvalue()


def entry(data: bytes, name: str = "photo.png", mime: str = "image/png") -> dict[str, Any]:
    return {
        "data": base64.b64encode(data).decode(),
        "mimeType": mime,
        "fileName": name,
        "fileExtension": name.rsplit(".", 1)[-1],
    }


async def run(
    parameters: dict[str, Any],
    binary: dict[str, Any] | None = None,
    *,
    version: float = 1.1,
    json: dict[str, Any] | None = None,
    on_error: str | None = None,
) -> Any:
    edit: dict[str, Any] = {
        "name": "Edit",
        "type": BASE + "editImage",
        "typeVersion": version,
        "parameters": parameters,
    }
    if on_error:
        edit["onError"] = on_error
    chain = [
        {"name": "Trigger", "type": BASE + "manualTrigger", "typeVersion": 1, "parameters": {}},
        {"name": "Input", "type": BASE + "noOp", "typeVersion": 1, "parameters": {}},
        edit,
    ]
    for i, node in enumerate(chain):
        node["position"] = [i * 200, 0]
    names = [n["name"] for n in chain]
    connections = {a: {"main": [[{"node": b, "type": "main", "index": 0}]]} for a, b in itertools.pairwise(names)}
    item: dict[str, Any] = {"json": json or {"k": 1}}
    if binary is not None:
        item["binary"] = binary
    workflow = {
        "nodes": chain,
        "connections": connections,
        "pinData": {"Input": [item]},
        "settings": {"executionOrder": "v1"},
    }
    return await run_workflow(workflow)


def task(result: Any) -> dict[str, Any]:
    found: dict[str, Any] = result["data"]["resultData"]["runData"]["Edit"][0]
    return found


def output(result: Any) -> dict[str, Any]:
    found = task(result)
    assert "data" in found, found.get("error")
    item: dict[str, Any] = found["data"]["main"][0][0]
    return item


def image_of(binary_entry: dict[str, Any]) -> Image.Image:
    image = Image.open(io.BytesIO(base64.b64decode(binary_entry["data"])))
    image.load()
    return image


def error_of(result: Any) -> dict[str, Any]:
    found = task(result)
    assert "error" in found, found
    error: dict[str, Any] = found["error"]
    return error
