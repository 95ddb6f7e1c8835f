"""The MySQL node: its client, query formatting and operations."""
