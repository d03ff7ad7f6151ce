"""Each service's role reaches its own schema and nothing else (DESIGN.md: one schema and one role per service).

Uses the identity role's URL that Tests/run provides (KINDRED_LIFECYCLE_DATABASE_URL, password in PGPASSFILE)
after the services have started and migrated, and psql as the client.
"""

import os
import subprocess

import pytest

DATABASE_URL = os.environ.get("KINDRED_LIFECYCLE_DATABASE_URL", "")


def psql(sql):
    if not DATABASE_URL:
        pytest.fail("KINDRED_LIFECYCLE_DATABASE_URL must be set (Tests/run sets it)")
    return subprocess.run(["psql", DATABASE_URL, "-X", "-v", "ON_ERROR_STOP=1", "-tAc", sql],
                          capture_output=True, text=True, timeout=30)


def test_a_service_reads_its_own_schema():
    result = psql("SELECT count(*) FROM identity.schema_migrations")
    assert result.returncode == 0, result.stderr


@pytest.mark.parametrize("schema", ["family", "social", "gamification"])
def test_a_service_cannot_read_another_services_schema(schema):
    result = psql(f"SELECT count(*) FROM {schema}.schema_migrations")
    assert result.returncode != 0
    assert f"permission denied for schema {schema}" in result.stderr


def test_a_service_cannot_create_objects_outside_its_schema():
    result = psql("CREATE TABLE public.intruder (id int)")
    assert result.returncode != 0
    assert "permission denied" in result.stderr
