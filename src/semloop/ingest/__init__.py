"""Receiving runs, without the HTTP: validating a batch (:mod:`.batch`) and the trace
importers (:mod:`.formats`). The routes that call them are :mod:`semloop.api.ingest`."""
