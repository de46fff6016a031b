"""Alembic migrations of the server's database (run by `bloodforge.server.migrate`)."""
