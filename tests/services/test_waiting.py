"""Waiting and resuming through the services: signed resume, 401/404/409, resume-node waits, time waits."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any, ClassVar

import pytest

from weft.db import Store
from weft.nodes.contract import ExecuteContext, NodeDescription, NodeType
from weft.nodes.registry import NodeRegistry
from weft.services.errors import ExecutionConflictError, ExecutionNotFoundError, InvalidSignatureError
from weft.services.prepared import prepare
from weft.services.runner import WorkflowRunner
from weft.services.scheduler import WaitScheduler
from weft.services.signing import ResumeSigner
from weft.services.waiting import claim_waiting
from weft.services.webhook_calls import call_waiting_webhook
from weft.services.webhook_requests import IncomingRequest
from weft.settings import Settings
from weft.testing.workflows import connect, node, output_json, workflow
from weft.workflow import NodeOutput


class Approval(NodeType):
    """Waits for a decision, then runs again and outputs it (``waitReason: 'resume-node'``)."""

    description: ClassVar[NodeDescription] = NodeDescription(name="test.approval", display_name="Approval")

    async def execute(self, ctx: ExecuteContext) -> NodeOutput:
        request = (ctx.execute_data.get("metadata") or {}).get("resumeRequest")  # type: ignore[attr-defined]
        if request is None:
            ctx.put_execution_to_wait(datetime(3000, 1, 1, tzinfo=UTC), resume_node=True)
            return [ctx.get_input_data()]
        return [[{"json": {"approved": request["body"]["approved"], "runIndex": ctx.run_index}}]]


def post(body: bytes = b"{}", method: str = "POST") -> IncomingRequest:
    return IncomingRequest(
        method=method, path="x", url="http://127.0.0.1/x", body=body, headers={"content-type": "application/json"}
    )


def test_signatures_are_hmacs_compared_whole() -> None:
    signer = ResumeSigner.from_encryption_key("k")
    signature = signer.sign("12")
    assert len(signature) == 64 and signer.verify("12", signature) and signer.verify("12", signature + "/suffix")
    assert not signer.verify("13", signature) and not signer.verify("12", None) and not signer.verify("12", "ab")
    assert ResumeSigner.from_encryption_key("other").sign("12") != signature


async def test_resume_node_runs_again_with_the_request(store: Store, settings: Settings) -> None:
    registry = NodeRegistry()
    registry.register(Approval)
    runner = WorkflowRunner(store, settings, registry)
    try:
        data = workflow(
            node("Start", "n8n-nodes-base.manualTrigger"), node("Ask", "test.approval"), connect("Start", "Ask")
        )
        first = await runner.run(prepare(data, registry), mode="trigger")
        assert first.run["status"] == "waiting"
        stored = store.executions.get(first.execution_id)
        assert stored is not None and stored.status == "waiting"
        signature = runner.signer.sign(first.execution_id)
        answer = await call_waiting_webhook(runner, first.execution_id, post(b'{"approved": true}'), signature)
        assert answer.status_code == 200
        await runner.drain(10)
        done = store.executions.get(first.execution_id)
        assert done is not None and done.status == "success" and done.data is not None
        runs = done.data["resultData"]["runData"]["Ask"]
        assert len(runs) == 1 and runs[0]["data"]["main"][0][0]["json"] == {"approved": True, "runIndex": 0}
    finally:
        runner.close()


def wait_workflow(**wait: Any) -> dict[str, Any]:
    return workflow(
        node("Start", "n8n-nodes-base.manualTrigger"),
        node("Wait", "n8n-nodes-base.wait", wait, version=1.1, position=(200, 0)),
        node("After", position=(400, 0)),
        connect("Start", "Wait"),
        connect("Wait", "After"),
    )


async def test_claim_checks_in_n8n_order(runner: WorkflowRunner, store: Store) -> None:
    with pytest.raises(ExecutionNotFoundError, match=r'The execution "424242" does not exist\.'):
        await claim_waiting(runner, "424242", signature=runner.signer.sign("424242"))
    result = await runner.run(prepare(wait_workflow(resume="webhook"), runner.registry), mode="trigger")
    with pytest.raises(InvalidSignatureError):
        await claim_waiting(runner, result.execution_id, signature="bad")
    claimed = await claim_waiting(runner, result.execution_id, signature=runner.signer.sign(result.execution_id))
    with pytest.raises(ExecutionConflictError, match="is running already"):
        await claim_waiting(runner, result.execution_id, check_signature=False)
    resumed = await runner.resume_claimed(claimed, resume_items=[{"json": {"body": {"ok": 1}}}])
    assert resumed.run["status"] == "success"
    assert output_json(resumed.run, "After") == [{"body": {"ok": 1}}]
    with pytest.raises(ExecutionConflictError, match="has finished already"):
        await claim_waiting(runner, result.execution_id, check_signature=False)


async def test_a_long_time_wait_is_stored_and_resumed_by_the_scheduler(runner: WorkflowRunner, store: Store) -> None:
    data = wait_workflow(resume="timeInterval", amount=2, unit="hours")
    result = await runner.run(prepare(data, runner.registry), mode="trigger")
    stored = store.executions.get(result.execution_id, include_data=False)
    assert stored is not None and stored.status == "waiting" and stored.wait_till is not None
    assert stored.wait_till > datetime.now(UTC) + timedelta(minutes=119)
    scheduler = WaitScheduler(runner, lead_seconds=3 * 3600)
    assert await scheduler.tick() == [result.execution_id]
    assert await scheduler.tick() == []  # scheduled once
    # make it due now, as if two hours passed (the scheduler sleeps until the stored time)
    claimed = await claim_waiting(runner, result.execution_id, check_signature=False)
    resumed = await runner.resume_claimed(claimed)
    assert resumed.run["status"] == "success" and output_json(resumed.run, "After") == [{}]


async def test_due_waits_resume_on_the_next_tick(runner: WorkflowRunner, store: Store) -> None:
    limit = {"limitWaitTime": True, "limitType": "afterTimeInterval", "resumeAmount": 0.2, "resumeUnit": "seconds"}
    result = await runner.run(prepare(wait_workflow(resume="webhook", **limit), runner.registry), mode="trigger")
    assert result.run["status"] == "waiting"
    scheduler = WaitScheduler(runner)
    assert await scheduler.tick() == [result.execution_id]
    await runner.drain(10)
    done = store.executions.get(result.execution_id, include_data=False)
    assert done is not None and done.status == "success"
