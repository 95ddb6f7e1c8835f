"""Edit Image through the real engine: sizes, pixels and binary metadata of each operation, n8n's errors, and a
decompression bomb refused before it is decoded."""

from __future__ import annotations

import io
import struct
import zlib
from typing import Any

import pytest
from PIL import Image
from tests.library.edit_image._helpers import entry, error_of, image_of, output, png, run
from tests.recorded._read_spy import checked, parameter_reads, undescribed

from weft.library.edit_image._codec import MAX_IMAGE_PIXELS
from weft.library.edit_image._colors import parse_color
from weft.library.edit_image._geometry import resize_size
from weft.library.edit_image._text import wrap

BLUE = (0, 0, 255, 255)


def _edited(result: Any, name: str = "data") -> dict[str, Any]:
    binary: dict[str, Any] = output(result)["binary"][name]
    return binary


# --------------------------------------------------------------------------- resize


@pytest.mark.parametrize(
    ("option", "width", "height", "expected"),
    [
        ("maximumArea", 50, 50, (70, 35)),  # GraphicsMagick's "@": an area of 50*50 pixels, aspect kept
        ("ignoreAspectRatio", 50, 50, (50, 50)),
        ("minimumArea", 50, 50, (100, 50)),
        ("onlyIfLarger", 100, 100, (100, 50)),
        ("onlyIfLarger", 400, 400, (200, 100)),
        ("onlyIfSmaller", 400, 400, (400, 200)),
        ("onlyIfSmaller", 100, 100, (200, 100)),
        ("percent", 50, 200, (100, 200)),
    ],
)
async def test_resize_options_give_graphicsmagick_sizes(
    option: str, width: int, height: int, expected: tuple[int, int]
) -> None:
    parameters = {"operation": "resize", "width": width, "height": height, "resizeOption": option}
    result = await run(parameters, {"data": entry(png(200, 100, BLUE))})
    image = image_of(_edited(result))
    assert image.size == expected
    assert image.convert("RGBA").getpixel((image.width // 2, image.height // 2)) == BLUE


async def test_resize_to_jpeg_keeps_json_and_other_binaries_and_names_the_file() -> None:
    other = entry(b"hello", "notes.txt", "text/plain")
    parameters = {"operation": "resize", "width": 10, "height": 10, "resizeOption": "ignoreAspectRatio"}
    parameters["options"] = {"format": "jpeg", "quality": 80}
    result = await run(parameters, {"data": entry(png(40, 20)), "notes": other}, json={"id": 7})
    item = output(result)
    assert item["json"] == {"id": 7}
    assert item["binary"]["notes"]["data"] == other["data"]
    edited = item["binary"]["data"]
    assert (edited["mimeType"], edited["fileExtension"], edited["fileName"], edited["fileType"]) == (
        "image/jpeg",
        "jpg",
        "photo.jpeg",
        "image",
    )
    image = image_of(edited)
    assert (image.format, image.size) == ("JPEG", (10, 10))


@pytest.mark.parametrize(
    ("fmt", "pil", "mime", "ext"),
    [
        ("png", "PNG", "image/png", "png"),
        ("gif", "GIF", "image/gif", "gif"),
        ("bmp", "BMP", "image/bmp", "bmp"),
        ("tiff", "TIFF", "image/tiff", "tif"),
        ("webp", "WEBP", "image/webp", "webp"),
    ],
)
async def test_format_option_sets_the_type_read_from_the_new_bytes(fmt: str, pil: str, mime: str, ext: str) -> None:
    parameters = {"operation": "blur", "blur": 1, "sigma": 1, "options": {"format": fmt, "fileName": "out." + fmt}}
    result = await run(parameters, {"data": entry(png(8, 8))})
    edited = _edited(result)
    assert (image_of(edited).format, edited["mimeType"], edited["fileExtension"]) == (pil, mime, ext)
    assert edited["fileName"] == "out." + fmt


async def test_jpeg_quality_changes_the_size() -> None:
    source = Image.effect_noise((64, 64), 60).convert("RGB")
    buffer = io.BytesIO()
    source.save(buffer, format="PNG")
    sizes = []
    for quality in (10, 95):
        parameters = {"operation": "blur", "blur": 0, "sigma": 0.1, "options": {"format": "jpeg", "quality": quality}}
        result = await run(parameters, {"data": entry(buffer.getvalue())})
        sizes.append(image_of(_edited(result)) and len(_edited(result)["data"]))
    assert sizes[0] < sizes[1]


def test_resize_geometry_helper_rounds_as_graphicsmagick() -> None:
    assert resize_size(1000, 500, 500, 500, "maximumArea") == (707, 353)
    assert resize_size(640, 480, 25, 50, "percent") == (160, 240)


# --------------------------------------------------------------------------- information


async def test_information_returns_the_identify_fields_and_keeps_the_image() -> None:
    jpeg = png(30, 20, (255, 0, 0, 255), fmt="JPEG")
    result = await run({"operation": "information"}, {"data": entry(jpeg, "a.jpg", "image/jpeg")})
    item = output(result)
    info = item["json"]
    assert info["format"] == "JPEG" and info["Format"].startswith("JPEG")
    assert (info["Geometry"], info["size"]) == ("30x20", {"width": 30, "height": 20})
    assert (info["depth"], info["Type"], info["Class"]) == (8, "true color", "DirectClass")
    assert image_of(item["binary"]["data"]).size == (30, 20)


async def test_exif_orientation_is_applied_as_graphicsmagick_auto_orient_does() -> None:
    source = Image.new("RGB", (40, 10), (0, 255, 0))
    exif = source.getexif()
    exif[0x0112] = 6  # RightTop: the camera was turned, the pixels need a 90 degree turn clockwise
    buffer = io.BytesIO()
    source.save(buffer, format="JPEG", exif=exif)
    info = output(await run({"operation": "information"}, {"data": entry(buffer.getvalue(), "a.jpg")}))["json"]
    assert (info["size"], info["Orientation"]) == ({"width": 40, "height": 10}, "RightTop")
    result = await run({"operation": "blur", "blur": 0, "sigma": 0.1}, {"data": entry(buffer.getvalue(), "a.jpg")})
    assert image_of(_edited(result)).size == (10, 40)


# --------------------------------------------------------------------------- single operations


async def test_crop_rotate_border_shear_transparent() -> None:
    quarters = Image.new("RGBA", (40, 20), (255, 0, 0, 255))
    quarters.paste((0, 255, 0, 255), (20, 0, 40, 20))
    buffer = io.BytesIO()
    quarters.save(buffer, format="PNG")
    data = {"data": entry(buffer.getvalue())}

    crop = {"operation": "crop", "width": 15, "height": 10, "positionX": 22, "positionY": 5}
    cropped = image_of(_edited(await run(crop, data))).convert("RGBA")
    assert cropped.size == (15, 10) and cropped.getpixel((0, 0)) == (0, 255, 0, 255)

    rotated = image_of(_edited(await run({"operation": "rotate", "rotate": 90}, data))).convert("RGBA")
    assert rotated.size == (20, 40) and rotated.getpixel((10, 5)) == (255, 0, 0, 255)  # clockwise: left goes up
    tilted = {"operation": "rotate", "rotate": 45, "backgroundColor": "#ffff0000"}
    corner = image_of(_edited(await run(tilted, data))).convert("RGBA")
    assert corner.width > 40 and corner.getpixel((0, 0)) == (255, 255, 0, 255)

    framed = {"operation": "border", "borderWidth": 3, "borderHeight": 5, "borderColor": "#000000"}
    bordered = image_of(_edited(await run(framed, data))).convert("RGBA")
    assert bordered.size == (46, 30) and bordered.getpixel((1, 1)) == (0, 0, 0, 255)
    assert bordered.getpixel((4, 6)) == (255, 0, 0, 255)

    sheared = image_of(_edited(await run({"operation": "shear", "degreesX": 45, "degreesY": 0}, data)))
    assert sheared.size == (60, 20)

    clear = {"operation": "transparent", "color": "#ff0000"}
    cleared = image_of(_edited(await run(clear, data))).convert("RGBA")
    assert cleared.getpixel((5, 5))[3] == 0 and cleared.getpixel((30, 5)) == (0, 255, 0, 255)


async def test_blur_softens_an_edge() -> None:
    half = Image.new("RGB", (20, 20), (0, 0, 0))
    half.paste((255, 255, 255), (10, 0, 20, 20))
    buffer = io.BytesIO()
    half.save(buffer, format="PNG")
    result = await run({"operation": "blur", "blur": 5, "sigma": 2}, {"data": entry(buffer.getvalue())})
    edge = image_of(_edited(result)).convert("RGB").getpixel((10, 10))
    assert isinstance(edge, tuple) and 40 < edge[0] < 230


# --------------------------------------------------------------------------- multi step


async def test_multi_step_create_draw_composite_text() -> None:
    logo = {"logo": entry(png(10, 10, (0, 255, 0, 255)), "logo.png")}
    steps = [
        {"operation": "create", "width": 200, "height": 100, "backgroundColor": "#ffffff00"},
        {"operation": "draw", "primitive": "rectangle", "color": "#ff000000", "startPositionX": 0,
         "startPositionY": 0, "endPositionX": 49, "endPositionY": 49, "cornerRadius": 0},
        {"operation": "draw", "primitive": "circle", "color": "#0000ff00", "startPositionX": 150,
         "startPositionY": 50, "endPositionX": 160, "endPositionY": 50},
        {"operation": "draw", "primitive": "line", "color": "#000000", "startPositionX": 0,
         "startPositionY": 99, "endPositionX": 199, "endPositionY": 99},
        {"operation": "composite", "dataPropertyNameComposite": "logo", "operator": "Over",
         "positionX": 60, "positionY": 10},
        {"operation": "text", "text": "Hello", "fontSize": 20, "fontColor": "#000000", "positionX": 0,
         "positionY": 0, "lineLength": 80, "horizontalAlignment": "west", "verticalAlignment": "south"},
    ]  # fmt: skip
    result = await run({"operation": "multiStep", "operations": {"operations": steps}}, logo)
    edited = _edited(result)
    assert (edited["mimeType"], edited["fileExtension"]) == ("image/png", "png")
    image = image_of(edited).convert("RGBA")
    assert image.size == (200, 100)
    assert image.getpixel((120, 10)) == (255, 255, 255, 255)  # n8n's default "#ffffff00" is opaque white
    assert image.getpixel((25, 25)) == (255, 0, 0, 255)
    assert image.getpixel((150, 50)) == (0, 0, 255, 255) and image.getpixel((150, 41)) == (0, 0, 255, 255)
    assert image.getpixel((150, 30)) == (255, 255, 255, 255)
    assert image.getpixel((100, 99)) == (0, 0, 0, 255)
    assert image.getpixel((65, 15)) == (0, 255, 0, 255)
    text_box = image.crop((0, 60, 80, 99)).convert("L")
    assert text_box.getextrema()[0] < 100  # the text sits at the bottom left


async def test_text_version_1_is_at_the_top_left_and_wraps() -> None:
    white = {"data": entry(png(200, 120, (255, 255, 255, 255)))}
    parameters = {"operation": "text", "text": "aaa bbb ccc", "fontSize": 16, "fontColor": "#000000",
                  "positionX": 0, "positionY": 0, "lineLength": 4}  # fmt: skip
    image = image_of(_edited(await run(parameters, white, version=1))).convert("L")
    assert image.crop((0, 0, 60, 20)).getextrema()[0] < 100
    assert image.crop((0, 40, 60, 60)).getextrema()[0] < 100  # the third line
    assert image.crop((100, 0, 200, 120)).getextrema()[0] == 255
    centered = image_of(_edited(await run(parameters, white, version=1.1))).convert("L")
    assert centered.crop((0, 0, 60, 20)).getextrema()[0] == 255
    assert wrap("aaa bbb ccc", 4) == "aaa\nbbb\nccc"
    assert wrap("one two\nthree", 80) == "one two\nthree"


def test_colors_are_read_as_graphicsmagick_reads_them() -> None:
    assert parse_color("#ff000000") == (255, 0, 0, 255)
    assert parse_color("#ffffffff") == (255, 255, 255, 0)
    assert parse_color("#00ff00") == (0, 255, 0, 255)
    assert parse_color("blue") == (0, 0, 255, 255)
    assert parse_color("transparent")[3] == 0


# --------------------------------------------------------------------------- errors


async def test_missing_binary_property_is_named() -> None:
    error = error_of(await run({"operation": "resize", "dataPropertyName": "photo"}, {"data": entry(png(4, 4))}))
    assert error["message"] == "The item has no binary field 'photo' [item 0]"
    assert error["node"]["name"] == "Edit"


async def test_unsupported_operation_and_bad_parameters_are_node_operation_errors() -> None:
    data = {"data": entry(png(4, 4))}
    error = error_of(await run({"operation": "sharpen"}, data))
    assert (error["name"], error["message"]) == (
        "NodeOperationError",
        "The operation 'sharpen' is not supported by Edit Image",
    )
    assert "operation" in error["description"] and error["node"]["name"] == "Edit"
    error = error_of(await run({"operation": "resize", "width": "wide"}, data))
    assert error["message"] == 'The value of "width" must be a number'
    error = error_of(await run({"operation": "blur", "options": {"format": "svg"}}, data))
    assert error["message"].startswith("Invalid image format: svg. Valid formats are: bmp, gif, jpeg")
    error = error_of(await run({"operation": "multiStep", "operations": {"operations": []}}, data))
    assert "operations" in error["description"]
    composite = {"operation": "composite", "dataPropertyNameComposite": "data", "operator": "Bumpmap"}
    assert "Bumpmap" in error_of(await run(composite, data))["message"]
    font = {"operation": "text", "text": "x", "options": {"font": "/nonexistent/Arial.ttf"}}
    message = error_of(await run(font, data))["message"]
    assert message == "The selected font is not available. Select a font from the options."


async def test_corrupt_image_is_refused_and_continue_on_fail_reports_it() -> None:
    data = {"data": entry(b"\x89PNG\r\n\x1a\n this is not really a png", "broken.png")}
    error = error_of(await run({"operation": "blur"}, data))
    assert error["name"] == "NodeOperationError" and error["node"]["name"] == "Edit"
    assert error["message"].startswith("The data is not an image that can be read")
    result = await run({"operation": "blur"}, data, on_error="continueRegularOutput")
    assert output(result)["json"]["error"].startswith("The data is not an image that can be read")


def _png_header_only(width: int, height: int) -> bytes:
    """A PNG that declares ``width`` x ``height`` pixels but holds a few bytes of them (a decompression bomb)."""

    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(b"\0" * 64)) + chunk(b"IEND", b"")
    )


async def test_decompression_bomb_is_refused_before_decoding() -> None:
    for side in (100_000, 8_000):  # far past Pillow's own limit; past Weft's but under Pillow's
        bomb = _png_header_only(side, side)
        assert len(bomb) < 200
        for operation in ("resize", "information"):
            error = error_of(await run({"operation": operation}, {"data": entry(bomb)}))
            assert error["message"].startswith("The image is too large: ")
            assert str(MAX_IMAGE_PIXELS) in error["message"]
    huge = {"operation": "create", "width": 100_000, "height": 100_000}
    create = {"operation": "multiStep", "operations": {"operations": [huge]}}
    assert error_of(await run(create))["message"].startswith("The image is too large")


# --------------------------------------------------------------------------- parameter reads


async def test_every_parameter_read_is_in_n8ns_description() -> None:
    data = {"data": entry(png(20, 20)), "logo": entry(png(4, 4))}
    runs: list[tuple[dict[str, Any], float]] = [
        ({"operation": "information"}, 1.1),
        ({"operation": "text", "text": "a", "options": {"format": "png"}}, 1),
        ({"operation": "text", "text": "a"}, 1.1),
        ({"operation": "composite", "dataPropertyNameComposite": "logo"}, 1.1),
        ({"operation": "multiStep", "operations": {"operations": [{"operation": "blur"}]}}, 1.1),
    ]
    runs += [({"operation": name}, 1.1) for name in ("blur", "border", "create", "crop", "draw", "resize")]
    runs += [({"operation": name}, 1.1) for name in ("rotate", "shear", "transparent")]
    with parameter_reads() as reads:
        for parameters, version in runs:
            output(await run(parameters, data, version=version))
    assert undescribed(reads) == []
    assert ("n8n-nodes-base.editImage", 1.0, "operation") in checked(reads)


async def test_destination_key_keeps_the_input_property() -> None:
    parameters = {"operation": "border", "borderWidth": 1, "borderHeight": 1, "options": {"destinationKey": "framed"}}
    item = output(await run(parameters, {"data": entry(png(4, 4))}))
    assert image_of(item["binary"]["data"]).size == (4, 4)
    framed = item["binary"]["framed"]
    assert image_of(framed).size == (6, 6) and framed["mimeType"] == "image/png" and "fileName" not in framed
