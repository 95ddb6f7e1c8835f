"""The image operations, on RGBA Pillow images, as GraphicsMagick's ``convert`` options that n8n passes.

Each takes the image and the step's parameters (numbers already parsed) and returns the new image. Errors are
:class:`OperationError` with the parameter they concern.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from PIL import Image, ImageChops, ImageDraw, ImageFilter, ImageOps

from weft.library.edit_image._codec import check_size
from weft.library.edit_image._colors import RGBA, ColorError, parse_color
from weft.library.edit_image._geometry import resize_size


class OperationError(ValueError):
    """A step's parameters cannot be applied; ``parameter`` names the one at fault."""

    def __init__(self, message: str, parameter: str) -> None:
        super().__init__(message)
        self.message = message
        self.parameter = parameter


def color(step: dict[str, Any], name: str) -> RGBA:
    try:
        return parse_color(step.get(name))
    except ColorError as error:
        raise OperationError(f"{error} in '{name}'", name) from error


def rgba(image: Image.Image) -> Image.Image:
    return image if image.mode == "RGBA" else image.convert("RGBA")


def create(step: dict[str, Any]) -> Image.Image:
    width, height = int(step["width"]), int(step["height"])
    if width < 1 or height < 1:
        raise OperationError(f"The image to create must be at least 1x1 pixels, not {width}x{height}", "width")
    check_size(width, height)
    return Image.new("RGBA", (width, height), color(step, "backgroundColor"))


def resize(image: Image.Image, step: dict[str, Any]) -> Image.Image:
    option = str(step.get("resizeOption") or "maximumArea")
    size = resize_size(image.width, image.height, step["width"], step["height"], option)
    if size == image.size:
        return image
    check_size(*size)
    return image.resize(size, Image.Resampling.LANCZOS)


def crop(image: Image.Image, step: dict[str, Any]) -> Image.Image:
    x, y = int(step["positionX"]), int(step["positionY"])
    box = (max(x, 0), max(y, 0), min(x + int(step["width"]), image.width), min(y + int(step["height"]), image.height))
    if box[0] >= box[2] or box[1] >= box[3]:
        raise OperationError(
            "The crop area lies outside the image (GraphicsMagick: geometry does not contain image)", "positionX"
        )
    return image.crop(box)


def rotate(image: Image.Image, step: dict[str, Any]) -> Image.Image:
    degrees = float(step["rotate"])
    return rgba(image).rotate(
        -degrees, resample=Image.Resampling.BICUBIC, expand=True, fillcolor=color(step, "backgroundColor")
    )


def blur(image: Image.Image, step: dict[str, Any]) -> Image.Image:
    sigma = float(step["sigma"]) or 1.0  # gm passes "-blur <radius>" without a sigma when it is 0: GraphicsMagick's 1
    return rgba(image).filter(ImageFilter.GaussianBlur(sigma))


def border(image: Image.Image, step: dict[str, Any]) -> Image.Image:
    width, height = max(int(step["borderWidth"]), 0), max(int(step["borderHeight"]), 0)
    check_size(image.width + 2 * width, image.height + 2 * height)
    return ImageOps.expand(rgba(image), (width, height, width, height), fill=color(step, "borderColor"))


def shear(image: Image.Image, step: dict[str, Any], background: RGBA) -> Image.Image:
    image = rgba(image)
    for name, axis in (("degreesX", "x"), ("degreesY", "y")):
        degrees = float(step[name])
        if degrees % 180 == 90:
            raise OperationError(f"Cannot shear by {degrees:g} degrees", name)
        if degrees % 180:
            image = _shear_axis(image, math.tan(math.radians(degrees)), axis, background)
    return image


def _shear_axis(image: Image.Image, t: float, axis: str, background: RGBA) -> Image.Image:
    width, height = image.size
    data: tuple[float, ...]
    if axis == "x":
        size = (width + math.ceil(abs(t) * height), height)
        data = (1, -t, t * height if t < 0 else 0, 0, 1, 0)
    else:
        size = (width, height + math.ceil(abs(t) * width))
        data = (1, 0, 0, -t, 1, t * width if t < 0 else 0)
    check_size(*size)
    return image.transform(size, Image.Transform.AFFINE, data, Image.Resampling.BICUBIC, fillcolor=background)


def transparent(image: Image.Image, step: dict[str, Any]) -> Image.Image:
    """Pixels of exactly ``color`` become fully transparent (GraphicsMagick's ``-transparent``, no fuzz)."""
    image = rgba(image)
    target = color(step, "color")
    masks = [
        band.point(lambda v, c=c: 255 if v == c else 0) for band, c in zip(image.split()[:3], target, strict=False)
    ]
    match = ImageChops.multiply(ImageChops.multiply(masks[0], masks[1]), masks[2])
    image.putalpha(ImageChops.subtract(image.getchannel("A"), match))
    return image


def draw(image: Image.Image, step: dict[str, Any]) -> Image.Image:
    """A filled rectangle (rounded with ``cornerRadius``), a filled circle (center, point on its edge) or a line."""
    image = rgba(image)
    layer = Image.new("RGBA", image.size, (0, 0, 0, 0))
    pen = ImageDraw.Draw(layer)
    fill = color(step, "color")
    x0, y0, x1, y1 = (float(step[k]) for k in ("startPositionX", "startPositionY", "endPositionX", "endPositionY"))
    primitive = step.get("primitive") or "rectangle"
    if primitive == "line":
        pen.line((x0, y0, x1, y1), fill=fill, width=1)
    elif primitive == "circle":
        r = math.hypot(x1 - x0, y1 - y0)
        pen.ellipse((x0 - r, y0 - r, x0 + r, y0 + r), fill=fill)
    elif primitive == "rectangle":
        box = (min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1))
        radius = float(step.get("cornerRadius") or 0)
        if radius > 0:
            pen.rounded_rectangle(box, radius=radius, fill=fill)
        else:
            pen.rectangle(box, fill=fill)
    else:
        raise OperationError(f"The primitive '{primitive}' is not supported", "primitive")
    return Image.alpha_composite(image, layer)


_CHOPS: dict[str, Callable[[Image.Image, Image.Image], Image.Image]] = {
    "Multiply": ImageChops.multiply,
    "Difference": ImageChops.difference,
    "Add": ImageChops.add,
    "Plus": ImageChops.add,
    "Subtract": ImageChops.subtract,
    "Minus": ImageChops.subtract,
}

#: The composite operators Weft applies (n8n offers more; the others are refused).
OPERATORS = ("Over", "Copy", *_CHOPS)


def composite(image: Image.Image, overlay: Image.Image, step: dict[str, Any]) -> Image.Image:
    """``overlay`` placed with its top left corner at ``positionX``/``positionY`` on ``image``."""
    operator = str(step.get("operator") or "Over")
    if operator not in OPERATORS:
        raise OperationError(
            f"The composite operator '{operator}' is not supported; use one of {', '.join(OPERATORS)}", "operator"
        )
    image, overlay = rgba(image), rgba(overlay)
    x, y = int(step["positionX"]), int(step["positionY"])
    if operator == "Copy":
        image.paste(overlay, (x, y))
        return image
    layer = Image.new("RGBA", image.size, (0, 0, 0, 0))
    layer.paste(overlay, (x, y))
    if operator == "Over":
        return Image.alpha_composite(image, layer)
    mixed = _CHOPS[operator](image.convert("RGB"), layer.convert("RGB")).convert("RGBA")
    mixed.putalpha(image.getchannel("A"))
    image.paste(mixed, (0, 0), layer.getchannel("A"))
    return image
