"""The Redis node."""
