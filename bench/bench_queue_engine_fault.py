"""Issue 22's fault test, run on a candidate task engine before queue mode is built on it.

One enqueuer, three worker processes, 500 jobs. Each job calls a local slow HTTP stub (50 ms) and inserts its id
into a table with a primary key; each job start is logged first (autocommitted). Once a third of the rows exist,
two workers get SIGKILL. Reported: whether all 500 rows exist, how many jobs ran twice to completion (primary-key
violations), how many were started again after a death, the longest time from the kill until a killed worker's
jobs finished elsewhere, and the total time.

    url=$(bash scripts/start_postgres.sh)                      # PostgreSQL (both engines record in it)
    WEFT_TEST_DATABASE_URL=$url .venv/bin/python bench/bench_queue_engine_fault.py procrastinate
    WEFT_TEST_REDIS_URL=redis://:weft@127.0.0.1:63799/0 WEFT_TEST_DATABASE_URL=$url \\
        .venv/bin/python bench/bench_queue_engine_fault.py dramatiq   # Redis from scripts/start_redis.sh

Engines: Procrastinate on PostgreSQL (its workers' heartbeats; the enqueuer retries the jobs of workers silent
for 3 s) and Dramatiq on Redis (its broker requeues the messages of a worker whose heartbeat is 3 s old).
"""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import psycopg

JOBS, WORKERS, CONCURRENCY, STUB_SECONDS, HEARTBEAT_S = 500, 3, 10, 0.05, 3.0
DB = os.environ.get("WEFT_TEST_DATABASE_URL", "postgresql://weft:weft@127.0.0.1:54329/weft")
REDIS = os.environ.get("WEFT_TEST_REDIS_URL", "redis://:weft@127.0.0.1:63799/0")
SCHEMA = "queue_fault_bench"
STUB_PORT = int(os.environ.get("STUB_PORT", "18350"))


# ---------------------------------------------------------------- the job (both engines)


def job_body(job_id: int, worker: str) -> None:
    import httpx

    with psycopg.connect(DB, autocommit=True) as conn:
        conn.execute(f"INSERT INTO {SCHEMA}.starts(id, worker) VALUES (%s, %s)", (job_id, worker))
        httpx.get(f"http://127.0.0.1:{STUB_PORT}/slow", timeout=10)
        try:
            conn.execute(f"INSERT INTO {SCHEMA}.rows_(id, worker) VALUES (%s, %s)", (job_id, worker))
        except psycopg.errors.UniqueViolation:
            conn.execute(f"INSERT INTO {SCHEMA}.dupes(id) VALUES (%s)", (job_id,))


def _worker_name() -> str:
    return f"{os.uname().nodename}-{os.getpid()}"


# ---------------------------------------------------------------- Procrastinate


def procrastinate_app() -> Any:
    import procrastinate

    connector = procrastinate.PsycopgConnector(conninfo=DB, kwargs={"options": f"-c search_path={SCHEMA}"})
    app = procrastinate.App(connector=connector)

    @app.task(name="run_execution")
    async def run_execution(job_id: int) -> None:
        await asyncio.to_thread(job_body, job_id, _worker_name())

    return app


async def procrastinate_worker() -> None:
    app = procrastinate_app()
    async with app.open_async():
        await app.run_worker_async(concurrency=CONCURRENCY, update_heartbeat_interval=0.5,
                                   stalled_worker_timeout=HEARTBEAT_S, install_signal_handlers=False)  # fmt: skip


async def procrastinate_enqueue(stop: asyncio.Event) -> None:
    app = procrastinate_app()
    async with app.open_async():
        await app.schema_manager.apply_schema_async()
        task = app.tasks["run_execution"]
        for job_id in range(JOBS):
            await task.defer_async(job_id=job_id)
        while not stop.is_set():  # the leader's duty: jobs of silent workers go back to the queue
            for job in await app.job_manager.get_stalled_jobs(seconds_since_heartbeat=HEARTBEAT_S):
                await app.job_manager.retry_job_by_id_async(job.id, retry_at=None)
            await asyncio.sleep(0.5)


# ---------------------------------------------------------------- Dramatiq


def dramatiq_broker() -> Any:
    import dramatiq
    from dramatiq.brokers.redis import RedisBroker

    broker = RedisBroker(url=REDIS, heartbeat_timeout=int(HEARTBEAT_S * 1000), maintenance_chance=10)
    dramatiq.set_broker(broker)

    @dramatiq.actor(actor_name="run_execution", max_retries=0)
    def run_execution(job_id: int) -> None:
        job_body(job_id, _worker_name())

    return broker, run_execution


def dramatiq_worker() -> None:
    from dramatiq import Worker

    broker, _ = dramatiq_broker()
    worker = Worker(broker, worker_threads=CONCURRENCY)
    worker.start()
    threading.Event().wait()


async def dramatiq_enqueue(stop: asyncio.Event) -> None:
    broker, actor = dramatiq_broker()
    broker.flush_all()
    for job_id in range(JOBS):
        actor.send(job_id)
    await stop.wait()


# ---------------------------------------------------------------- the test


class _Slow(BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        time.sleep(STUB_SECONDS)
        self.send_response(200)
        self.send_header("content-length", "2")
        self.end_headers()
        self.wfile.write(b"ok")

    def log_message(self, *args: Any) -> None:
        pass


def _reset() -> None:
    with psycopg.connect(DB, autocommit=True) as conn:
        conn.execute(f"DROP SCHEMA IF EXISTS {SCHEMA} CASCADE")
        conn.execute(f"CREATE SCHEMA {SCHEMA}")
        conn.execute(f"CREATE TABLE {SCHEMA}.rows_(id int PRIMARY KEY, worker text, at timestamptz DEFAULT now())")
        conn.execute(f"CREATE TABLE {SCHEMA}.starts(id int, worker text, at timestamptz DEFAULT now())")
        conn.execute(f"CREATE TABLE {SCHEMA}.dupes(id int)")


def _count(sql: str) -> Any:
    with psycopg.connect(DB, autocommit=True) as conn:
        row = conn.execute(sql).fetchone()
        return row[0] if row else None


async def run(engine: str) -> None:
    _reset()
    stub = ThreadingHTTPServer(("127.0.0.1", STUB_PORT), _Slow)
    threading.Thread(target=stub.serve_forever, daemon=True).start()
    stop = asyncio.Event()
    enqueue = asyncio.create_task((procrastinate_enqueue if engine == "procrastinate" else dramatiq_enqueue)(stop))
    await asyncio.sleep(2)  # the schema and the 500 jobs first
    started = time.monotonic()
    workers = [subprocess.Popen([sys.executable, __file__, engine, "--worker"]) for _ in range(WORKERS)]  # noqa: ASYNC220
    while _count(f"SELECT count(*) FROM {SCHEMA}.rows_") < JOBS // 3:  # noqa: ASYNC110
        await asyncio.sleep(0.05)
    killed_names = [f"{os.uname().nodename}-{w.pid}" for w in workers[:2]]
    for worker in workers[:2]:
        worker.send_signal(signal.SIGKILL)
    killed_at = _count("SELECT now()")
    deadline = time.monotonic() + 180
    while _count(f"SELECT count(*) FROM {SCHEMA}.rows_") < JOBS and time.monotonic() < deadline:  # noqa: ASYNC110
        await asyncio.sleep(0.1)
    total = time.monotonic() - started
    rows = _count(f"SELECT count(*) FROM {SCHEMA}.rows_")
    dupes = _count(f"SELECT count(*) FROM {SCHEMA}.dupes")
    names = "', '".join(killed_names)
    lost = f"SELECT id FROM {SCHEMA}.starts WHERE worker IN ('{names}') EXCEPT SELECT id FROM {SCHEMA}.rows_ WHERE worker IN ('{names}')"  # noqa: E501
    recovered = _count(f"SELECT count(*) FROM ({lost}) l")
    since_kill = f"extract(epoch FROM max(r.at) - '{killed_at}'::timestamptz)"
    longest = _count(f"SELECT {since_kill} FROM {SCHEMA}.rows_ r WHERE r.id IN ({lost})")
    restarted = _count(f"SELECT count(*) FROM (SELECT id FROM {SCHEMA}.starts GROUP BY id HAVING count(*) > 1) s")
    longest_s = float(longest or 0)
    print(f"{engine}: rows {rows}/{JOBS}, completed twice {dupes}, started again {restarted},")
    print(f"  in flight on the killed workers {recovered}, longest kill->finished elsewhere {longest_s:.1f} s")
    print(f"  total {total:.1f} s")
    stop.set()
    await enqueue
    for worker in workers[2:]:
        worker.send_signal(signal.SIGKILL)
    stub.shutdown()


def main() -> None:
    engine = sys.argv[1] if len(sys.argv) > 1 else "procrastinate"
    if "--worker" in sys.argv:
        if engine == "procrastinate":
            asyncio.run(procrastinate_worker())
        else:
            dramatiq_worker()
        return
    asyncio.run(run(engine))


if __name__ == "__main__":
    main()
