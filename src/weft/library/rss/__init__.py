"""The RSS Read node."""
