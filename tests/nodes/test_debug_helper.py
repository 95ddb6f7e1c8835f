"""Debug Helper: its errors, its harmless out-of-memory stand-in and its random data (recorded: n480-n484)."""

from __future__ import annotations

import re

import pytest

from weft.library.core.debug_helper import MEMORY_LIMIT_MB

TWO = [{"n": 1}, {"n": 2}]


async def test_do_nothing_outputs_nothing(run_node, out):
    assert out(await run_node("debugHelper", {"category": "doNothing"}, TWO)) == [[]]


@pytest.mark.parametrize("kind", ["NodeApiError", "NodeOperationError", "Error"])
async def test_throw_error_names_the_message(run_node, kind):
    run = await run_node("debugHelper", {"throwErrorType": kind, "throwErrorMessage": "bad"}, TWO)
    assert run["data"]["resultData"]["error"]["message"] == "bad"


async def test_throw_error_with_continue_on_fail_gives_each_item_its_error(run_node, out):
    run = await run_node("debugHelper", {}, TWO, onError="continueRegularOutput")
    assert out(run) == [[{"json": {"error": "Node has thrown an error"}, "pairedItem": {"item": i}} for i in (0, 1)]]


async def test_out_of_memory_allocates_nothing_and_reports_memory(run_node, js):
    small = await run_node("debugHelper", {"category": "oom", "memorySizeValue": 1}, TWO)
    assert [set(item) for item in js(small)] == [{"rss", "heapTotal", "heapUsed", "external", "arrayBuffers"}] * 2
    big = await run_node("debugHelper", {"category": "oom", "memorySizeValue": MEMORY_LIMIT_MB * 100}, TWO)
    assert big["data"]["resultData"]["error"]["message"] == "Node crashed, possible out-of-memory issue"


SHAPES = {
    "user": {"uid", "email", "firstname", "lastname", "password"},
    "address": {"firstname", "lastname", "street", "city", "zip", "state", "country"},
    "email": {"email", "confirmed"},
    "creditCard": {"type", "number", "ccv", "exp", "holder_name"},
    "uuid": {"uuid"},
    "macAddress": {"mac"},
    "ipv4": {"ip"},
    "ipv6": {"ipv6"},
    "latLong": {"location"},
    "semver": {"version"},
    "url": {"url"},
}


@pytest.mark.parametrize(("kind", "keys"), SHAPES.items())
async def test_random_data_shapes_and_seed(run_node, js, kind, keys):
    params = {"category": "randomData", "randomDataType": kind, "randomDataCount": 3, "randomDataSeed": "s"}
    first = js(await run_node("debugHelper", params, [{}]))
    assert len(first) == 3 and all(set(item) == keys for item in first)
    assert js(await run_node("debugHelper", params, [{}])) == first  # a seed repeats the data


async def test_random_single_array_and_nanoid(run_node, js):
    params = {"category": "randomData", "randomDataType": "nanoid", "randomDataCount": 2}
    single = js(
        await run_node(
            "debugHelper", {**params, "nanoidAlphabet": "ab", "nanoidLength": "5", "randomDataSingleArray": True}, TWO
        )
    )
    assert len(single) == 2
    assert all(re.fullmatch("[ab]{5}", g["nanoId"]) for item in single for g in item["generatedItems"])
