"""Resuming waiting executions: the checks of n8n's ``/webhook-waiting/<id>`` and the atomic claim.

Order of the checks, as in n8n's ``WaitingWebhooks``: unknown id → 404; a missing or wrong signature → 401
(the execution stays waiting); not waiting → 409 (running already / finished with error / finished already).
The claim moves ``waiting → running`` with a conditional update, so two concurrent resumes start it once.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from weft.db.transitions import RESUME
from weft.services.errors import ExecutionConflictError, ExecutionNotFoundError, InvalidSignatureError

if TYPE_CHECKING:  # types only: the runner resumes through this module; the repository module loads SQLAlchemy
    from weft.db.executions import StoredExecution
    from weft.services.runner import WorkflowRunner


async def claim_waiting(
    runner: WorkflowRunner,
    execution_id: str,
    *,
    signature: str | None = None,
    check_signature: bool = True,
    before_claim: Callable[[StoredExecution], None] | None = None,
    authorize: Callable[[StoredExecution], Awaitable[None]] | None = None,
) -> StoredExecution:
    """The execution with its data, now ``running``; raises the 404/401/409 errors.

    ``before_claim``, then ``authorize`` (the resume webhook's own authentication), may refuse the request (raise)
    after the checks and before the execution is claimed: a refused request leaves it waiting.
    The data loaded before the claim is current: a waiting execution changes only through a claim.
    """
    stored = await runner.db(runner.store.executions.get, execution_id)
    if stored is None:
        raise ExecutionNotFoundError(execution_id)
    if check_signature and not runner.signer.verify(stored.id, signature):
        raise InvalidSignatureError()
    if stored.status != "waiting":
        raise not_waiting_error(stored)
    if before_claim is not None:
        before_claim(stored)
    if authorize is not None:
        await authorize(stored)
    claimed = await runner.db_write(runner.store.executions.move, stored.id, RESUME)
    if not claimed:
        raise ExecutionConflictError(f'The execution "{stored.id}" is running already.', execution_id=stored.id)
    return stored


def not_waiting_error(stored: StoredExecution) -> ExecutionConflictError:
    """n8n's 409 for an execution that is not waiting."""
    if stored.status in ("running", "new"):
        state = "is running already"
    elif stored.status in ("error", "crashed"):
        state = "has finished with error"
    else:
        state = "has finished already"
    return ExecutionConflictError(f'The execution "{stored.id}" {state}.', execution_id=stored.id)


__all__ = ["claim_waiting", "not_waiting_error"]
