"""The Postgres node: its own wire client, query formatting and the v1 and v2 operations."""
