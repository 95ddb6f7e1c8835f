"""The leader of queue mode: one holder of the PostgreSQL advisory lock per schema, released when its process dies."""

from __future__ import annotations

import signal
import subprocess
import sys

from tests.queue_mode.conftest import Cluster
from tests.server.conftest import wait_for

from weft.db.test_support import reset_schema
from weft.queue.leader import PostgresLeader
from weft.queue.tasks import libpq_url

HOLD = """
import sys, time
from weft.queue.leader import PostgresLeader
leader = PostgresLeader(sys.argv[1])
assert leader.try_lead()
print("leading", flush=True)
time.sleep(600)
"""


def test_one_leader_at_a_time_and_the_next_takes_over_when_it_dies(cluster: Cluster) -> None:
    conninfo = libpq_url(cluster.settings().database_url)
    holder = subprocess.Popen([sys.executable, "-c", HOLD, conninfo], stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "leading"
        follower = PostgresLeader(conninfo)
        assert not follower.try_lead()
        holder.send_signal(signal.SIGKILL)  # no release: the database ends the dead process's session
        holder.wait(30)
        assert wait_for(follower.try_lead, timeout=30)
        assert not PostgresLeader(conninfo).try_lead()
        follower.release()
    finally:
        holder.kill()
        holder.wait(30)
        if holder.stdout is not None:
            holder.stdout.close()


def test_instances_in_separate_schemas_lead_apart(cluster: Cluster) -> None:
    here = PostgresLeader(libpq_url(cluster.settings().database_url))
    elsewhere = PostgresLeader(libpq_url(reset_schema(cluster.settings().database_url.split("?")[0], "weft_other")))
    try:
        assert here.try_lead() and elsewhere.try_lead()
    finally:
        here.release()
        elsewhere.release()
