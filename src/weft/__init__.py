"""Weft: n8n-compatible workflow automation in Python, with agents that ask the engine to run their tools."""

__version__ = "0.1.0"
