"""Showing results: as data (JSON/YAML) and as text a person can follow (rich)."""
