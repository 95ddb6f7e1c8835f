"""n8n's Linear node over Linear's GraphQL API."""
