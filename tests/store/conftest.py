"""The store tests use the shared ``store`` and ``db_url`` fixtures of tests/conftest.py:
SQLite (a temporary file) and PostgreSQL (a fresh database cloned from a migrated template)."""
