"""Queue mode's plumbing: executions handed to worker processes through an existing task engine.

* :mod:`weft.queue.tasks`: the task engine (Procrastinate on PostgreSQL; ``docs/queue-mode.md`` says why), its jobs;
* :mod:`weft.queue.messages`: what a worker tells the process that holds an execution's request;
* :mod:`weft.queue.leader`: which main process leads (schedules, polling, waits), elected in PostgreSQL.

The claims that keep a job delivered twice from being run or written twice are in :mod:`weft.db.claims`; the
services that use all this are :mod:`weft.services.queue_client` (mains) and :mod:`weft.services.queue_worker`.
"""
