"""Queue mode with real processes: ``weft start`` mains and ``weft worker`` workers on one PostgreSQL database
(``WEFT_TEST_DATABASE_URL``; ``bash scripts/start_postgres.sh``). Without it these tests are skipped."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from tests.server.conftest import TIMEOUT, free_port, log_in, wait_for

from weft.db.test_support import TEST_DATABASE_URL, reset_schema
from weft.services.import_export import open_store
from weft.settings import Settings
from weft.testing.service_servers import in_ci

pytestmark = pytest.mark.postgres
SCHEMA = "weft_queue"


class Process:
    """A ``weft`` command in its own process group, its stderr kept in a file (read when it fails)."""

    def __init__(self, args: list[str], env: dict[str, str], log: Path) -> None:
        self.log = log
        self.handle = log.open("wb")
        self.popen = subprocess.Popen(
            [sys.executable, "-m", "weft", *args], env=env, stdout=self.handle, stderr=subprocess.STDOUT,
            start_new_session=True,
        )  # fmt: skip

    def output(self) -> str:
        return self.log.read_text(errors="replace")

    def alive(self) -> bool:
        return self.popen.poll() is None

    def kill(self, sig: int = signal.SIGKILL) -> None:
        if self.alive():
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.popen.pid, sig)
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.popen.wait(TIMEOUT)
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.popen.pid, signal.SIGKILL)
        self.popen.wait(TIMEOUT)
        self.handle.close()


class Cluster:
    """One database, mains and workers started on demand, all stopped at the end."""

    def __init__(self, folder: Path, url: str) -> None:
        self.folder = folder
        self.env = {
            **os.environ,
            "WEFT_USER_FOLDER": str(folder),
            "WEFT_DATABASE_URL": url,
            "WEFT_EXECUTIONS_MODE": "queue",
            "WEFT_QUEUE_LEASE_SECONDS": "3",
            "WEFT_BINARY_DATA_MODE": "database",
        }
        self.processes: list[Process] = []
        self.url = ""

    def settings(self) -> Settings:
        return Settings.from_env(self.env)

    def start_main(self) -> Process:
        port = free_port()
        self.url = f"http://127.0.0.1:{port}"
        self.env["WEFT_PUBLIC_URL"] = self.url + "/"  # workers make resume links: they need the public URL too
        main = self._spawn(["start"], {**self.env, "WEFT_PORT": str(port)}, "main")
        wait_for(lambda: self._healthy(main), timeout=60)
        return main

    def start_worker(self, concurrency: int = 5) -> Process:
        worker = self._spawn(["worker", "--concurrency", str(concurrency)], self.env, "worker")
        wait_for(lambda: self._check(worker) and "runs queued executions" in worker.output(), timeout=60)
        return worker

    @contextlib.contextmanager
    def client(self) -> Iterator[httpx.Client]:
        with httpx.Client(base_url=self.url, timeout=60) as client:
            yield log_in(client)

    def _spawn(self, args: list[str], env: dict[str, str], name: str) -> Process:
        process = Process(args, env, self.folder / f"{name}-{len(self.processes)}.log")
        self.processes.append(process)
        return process

    def _check(self, process: Process) -> bool:
        assert process.alive(), process.output()
        return True

    def _healthy(self, process: Process) -> bool:
        self._check(process)
        try:
            return httpx.get(f"{self.url}/healthz", timeout=1).status_code == 200
        except httpx.TransportError:
            return False

    def stop(self) -> None:
        for process in self.processes:
            process.kill(signal.SIGTERM)


@pytest.fixture
def cluster(tmp_path: Path) -> Iterator[Cluster]:
    if not TEST_DATABASE_URL:
        if in_ci():
            pytest.fail("CI must run the queue-mode tests: WEFT_TEST_DATABASE_URL is not set")
        pytest.skip("queue mode needs PostgreSQL: set WEFT_TEST_DATABASE_URL (bash scripts/start_postgres.sh)")
    url = reset_schema(TEST_DATABASE_URL, SCHEMA)
    cluster = Cluster(tmp_path, url)
    open_store(cluster.settings()).close()  # migrated once, before processes race to do it
    try:
        yield cluster
    finally:
        cluster.stop()
