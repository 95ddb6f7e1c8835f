"""What workers tell mains (PostgreSQL): a message rides in its notification when it fits, else in its table row;
each is passed on once, also when it came before its main knew the execution's id, and a message whose
notification was lost is still found."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import pytest
from sqlalchemy import func, insert, select

from weft.db import Store
from weft.db.async_pg import AsyncStatements
from weft.db.orm import Base, ExecutionMessageEntity, utcnow
from weft.queue import messages
from weft.queue.tasks import libpq_url, task_app
from weft.queue.tasks import statements as statements_of

pytestmark = pytest.mark.postgres
WORKFLOW = {"id": "wf1", "name": "messages", "nodes": [], "connections": {}}
_MESSAGES = Base.metadata.tables[ExecutionMessageEntity.__tablename__]
WAIT = 30.0


@pytest.fixture
def store(postgres_store: Store) -> Store:
    return postgres_store


def _url(store: Store) -> str:
    return store.db.engine.url.render_as_string(hide_password=False)


@pytest.fixture
async def mailbox(store: Store) -> AsyncIterator[messages.Mailbox]:
    box = messages.Mailbox(store.db, libpq_url(_url(store)))
    await box.start()
    yield box
    await box.close()


@pytest.fixture
async def statements(store: Store) -> AsyncIterator[AsyncStatements]:
    """What a worker publishes with: the task engine's asyncio pool."""
    app = task_app(_url(store))
    async with app.open_async():
        yield statements_of(app)


def _rows(store: Store) -> int:
    with store.db.engine.connect() as connection:
        return int(connection.scalar(select(func.count()).select_from(_MESSAGES)) or 0)


async def _until(condition: Any) -> None:
    for _ in range(int(WAIT / 0.02)):
        if condition():
            return
        await asyncio.sleep(0.02)
    raise AssertionError("the condition did not come true")


async def test_a_small_message_rides_in_its_notification_and_its_row_is_deleted(
    store: Store, mailbox: messages.Mailbox, statements: AsyncStatements
) -> None:
    execution_id = store.executions.create(WORKFLOW, "webhook", "new")
    inbox = mailbox.expect(execution_id)
    await messages.publish(statements, execution_id, messages.RESPONSE, {"status": 200})
    assert await asyncio.wait_for(inbox.get(), WAIT) == (messages.RESPONSE, {"status": 200})
    await _until(lambda: _rows(store) == 0)  # deleted in the next batch


async def test_a_large_message_is_read_from_its_row(
    store: Store, mailbox: messages.Mailbox, statements: AsyncStatements
) -> None:
    execution_id = store.executions.create(WORKFLOW, "webhook", "new")
    inbox = mailbox.expect(execution_id)
    large = {"body": "é" * messages.INLINE_BYTES}  # fits in characters, not in bytes
    await messages.publish(statements, execution_id, messages.FINISHED, large)
    assert await asyncio.wait_for(inbox.get(), WAIT) == (messages.FINISHED, large)
    assert _rows(store) == 0


async def test_messages_that_come_before_the_main_expects_them_are_kept_in_order(
    store: Store, mailbox: messages.Mailbox, statements: AsyncStatements
) -> None:
    execution_id = store.executions.create(WORKFLOW, "webhook", "new")
    other = store.executions.create(WORKFLOW, "webhook", "new")
    for kind, payload in [(messages.CHUNK, 1), (messages.CHUNK, 2), (messages.FINISHED, 3)]:
        await messages.publish(statements, execution_id, kind, payload)
    await messages.publish(statements, other, messages.FINISHED, "not mine")
    await _until(lambda: len(mailbox._early) == 2)
    inbox = mailbox.expect(execution_id)
    got = [inbox.get_nowait() for _ in range(3)]
    assert got == [(messages.CHUNK, 1), (messages.CHUNK, 2), (messages.FINISHED, 3)]
    assert inbox.empty()
    await _until(lambda: _rows(store) == 1)  # the other execution's message stays for its own main


async def test_a_message_whose_notification_was_lost_is_found_once(
    store: Store, mailbox: messages.Mailbox, statements: AsyncStatements, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(messages, "SWEEP_SECONDS", 0.05)
    monkeypatch.setattr(messages, "DONE_BATCH_SECONDS", WAIT)  # rows of passed-on messages stay: the sweep sees them
    execution_id = store.executions.create(WORKFLOW, "webhook", "new")
    inbox = mailbox.expect(execution_id)
    await messages.publish(statements, execution_id, messages.CHUNK, "notified")
    assert await asyncio.wait_for(inbox.get(), WAIT) == (messages.CHUNK, "notified")
    row = {"execution_id": int(execution_id), "kind": messages.FINISHED, "payload": '"silent"', "created_at": utcnow()}
    with store.db.engine.begin() as connection:  # a message whose notification never came
        connection.execute(insert(_MESSAGES).values(row))
    assert await asyncio.wait_for(inbox.get(), WAIT) == (messages.FINISHED, "silent")
    await _until(lambda: _rows(store) == 0)  # the sweep took both rows; the notified one was not passed on again
    assert inbox.empty()
