"""Fakes of the services SaaS trigger nodes talk to (webhook registration, polled lists), for pytest: each module
has ``install(server: FakeApiServer) -> <State>``, whose state tests read and change (what was registered, the
records the next poll finds)."""
