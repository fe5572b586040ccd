"""pytest-rwe's pytest plugin (being built)."""
