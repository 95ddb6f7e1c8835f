"""The steps an Edit Image node runs: read from its parameters (one operation, or Multi Step's list), with
n8n's defaults and its number checks, then applied to an image off the event loop."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from PIL import Image

from weft.library.edit_image import _ops
from weft.library.edit_image._codec import PIL_FORMATS, decode, encode
from weft.library.edit_image._colors import RGBA
from weft.library.edit_image._text import draw_text, gravity

#: Each operation's parameters and n8n's defaults for them (``width`` and ``positionX`` differ by operation).
STEP_DEFAULTS: dict[str, dict[str, Any]] = {
    "blur": {"blur": 5, "sigma": 2},
    "border": {"borderColor": "#000000", "borderWidth": 10, "borderHeight": 10},
    "composite": {"dataPropertyNameComposite": "", "operator": "Over", "positionX": 0, "positionY": 0},
    "create": {"backgroundColor": "#ffffff00", "height": 50, "width": 50},
    "crop": {"height": 500, "positionX": 0, "positionY": 0, "width": 500},
    "draw": {
        "color": "#ff000000",
        "cornerRadius": 0,
        "endPositionX": 250,
        "endPositionY": 250,
        "primitive": "rectangle",
        "startPositionX": 50,
        "startPositionY": 50,
    },
    "information": {},
    "resize": {"height": 500, "resizeOption": "maximumArea", "width": 500},
    "rotate": {"backgroundColor": "#ffffffff", "rotate": 0},
    "shear": {"degreesX": 0, "degreesY": 0},
    "text": {
        "horizontalAlignment": "center",
        "verticalAlignment": "middle",
        "font": "",
        "fontColor": "#000000",
        "fontSize": 18,
        "lineLength": 80,
        "positionX": 50,
        "positionY": 50,
        "text": "",
    },
    "transparent": {"color": "#ff0000"},
}

#: The parameters n8n 2.41 requires to be numbers (``parseNumericParameter``).
NUMERIC: dict[str, tuple[str, ...]] = {
    "blur": ("blur", "sigma"),
    "border": ("borderWidth", "borderHeight"),
    "composite": ("positionX", "positionY"),
    "create": ("width", "height"),
    "crop": ("width", "height", "positionX", "positionY"),
    "draw": ("startPositionX", "startPositionY", "endPositionX", "endPositionY", "cornerRadius"),
    "resize": ("width", "height"),
    "rotate": ("rotate",),
    "shear": ("degreesX", "degreesY"),
    "text": ("fontSize", "positionX", "positionY", "lineLength"),
}


class StepError(ValueError):
    """A parameter n8n would refuse; ``parameter`` names it."""

    def __init__(self, message: str, parameter: str) -> None:
        super().__init__(message)
        self.message = message
        self.parameter = parameter


def number(value: Any, name: str) -> float:
    """n8n's ``parseNumericParameter``: a number, or a non-blank string JavaScript's ``Number`` reads as finite."""
    if (
        isinstance(value, bool)
        or not isinstance(value, int | float | str)
        or (isinstance(value, str) and not value.strip())
    ):
        raise StepError(f'The value of "{name}" must be a number', name)
    if isinstance(value, str):
        text = value.strip()
        try:
            parsed = math.nan if "_" in text else float(text)
        except ValueError:
            parsed = _js_int(text)
    else:
        parsed = float(value)
    if not math.isfinite(parsed):
        raise StepError(f'The value of "{name}" must be a number', name)
    return parsed


def _js_int(text: str) -> float:
    """``Number("0x1f")`` and friends (hex, octal, binary literals)."""
    try:
        return float(int(text.strip(), 0))
    except ValueError:
        return math.nan


def complete(step: dict[str, Any]) -> dict[str, Any]:
    """A step with n8n's defaults for what it leaves out and its numbers parsed."""
    name = str(step.get("operation") or "")
    full = {**STEP_DEFAULTS.get(name, {}), **step}
    for parameter in NUMERIC.get(name, ()):
        if parameter == "cornerRadius" and full.get("primitive") != "rectangle":
            continue
        full[parameter] = number(full.get(parameter), parameter)
    return full


@dataclass(kw_only=True)
class Job:
    """Everything one item's edit needs, read on the event loop, run in a worker thread."""

    steps: list[dict[str, Any]]
    source: bytes | None
    overlays: dict[str, bytes] = field(default_factory=dict)
    font: str = ""
    version: float = 1.1
    output_format: str | None = None
    quality: float | None = None


def run(job: Job) -> tuple[bytes, str]:
    """The edited image's bytes and their Pillow format name."""
    image: Image.Image | None = None
    source_format = "PNG"
    if job.source is not None:
        image, source_format = decode(job.source)
    background: RGBA = (0, 0, 0, 0)  # gm's ``background('transparent')``
    for step in job.steps:
        name = step.get("operation")
        if name == "create":
            image = _ops.create(step)
            continue
        if image is None:
            continue
        if name == "rotate":
            background = _ops.color(step, "backgroundColor")
        image = _apply(image, step, job, background)
    assert image is not None
    pil_format = PIL_FORMATS.get(job.output_format or "", source_format)
    return encode(image, pil_format, job.quality), pil_format


def _apply(image: Image.Image, step: dict[str, Any], job: Job, background: RGBA) -> Image.Image:
    name = step.get("operation")
    if name == "composite":
        overlay, _ = decode(job.overlays[str(step.get("dataPropertyNameComposite"))])
        return _ops.composite(image, overlay, step)
    if name == "text":
        where = gravity(step.get("horizontalAlignment"), step.get("verticalAlignment"))
        return draw_text(
            image, step, job.font or str(step.get("font") or ""), where if job.version >= 1.1 else "northwest"
        )
    if name == "shear":
        return _ops.shear(image, step, background)
    simple = {
        "blur": _ops.blur,
        "border": _ops.border,
        "crop": _ops.crop,
        "draw": _ops.draw,
        "resize": _ops.resize,
        "rotate": _ops.rotate,
        "transparent": _ops.transparent,
    }.get(str(name))
    return simple(image, step) if simple else image  # n8n skips a step it does not know
