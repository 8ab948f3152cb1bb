"""Receiving runs: the ingest API and the trace importers."""
