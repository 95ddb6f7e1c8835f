"""Airtable nodes."""
