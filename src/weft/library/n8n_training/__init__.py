"""n8n's training nodes: fixed data for tutorials and templates."""
