"""Alembic revisions, one module each (a package so that setuptools ships them)."""
