from __future__ import annotations


async def test_error_message_fails_the_execution(run_node):
    run = await run_node("stopAndError", {"errorMessage": "Stop right there"}, [{"a": 1}])
    error = run["data"]["resultData"]["error"]
    assert (run["status"], error["message"], error["node"]["name"]) == ("error", "Stop right there", "Node")
    assert run["data"]["resultData"]["runData"]["Node"][0]["executionStatus"] == "error"


async def test_error_object_uses_message_and_description(run_node):
    params = {"errorType": "errorObject", "errorObject": '{"message": "Bad input", "description": "Check the id"}'}
    run = await run_node("stopAndError", params, [{}])
    error = run["data"]["resultData"]["error"]
    assert (error["message"], error["description"]) == ("Bad input", "Check the id")


async def test_error_object_without_message(run_node):
    run = await run_node("stopAndError", {"errorType": "errorObject", "errorObject": '{"code": 7}'}, [{}])
    assert run["data"]["resultData"]["error"]["message"] == 'Error: {"code":7}'


async def test_continue_regular_output_passes_items_through(run_node, js):
    run = await run_node("stopAndError", {"errorMessage": "x"}, [{"a": 1}], onError="continueRegularOutput")
    # as in n8n (recorded case n124): the items go on, but as the last node to run its error ends the execution
    assert run["status"] == "error" and run["data"]["resultData"]["error"]["message"] == "x"
    assert js(run) == [{"a": 1}]
