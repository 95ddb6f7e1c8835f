"""Supabase: rows of a project's tables through its PostgREST API (``<host>/rest/v1``)."""
