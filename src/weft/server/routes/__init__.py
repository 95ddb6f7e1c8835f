"""HTTP routes, one module per concept; each is thin and calls the services."""
