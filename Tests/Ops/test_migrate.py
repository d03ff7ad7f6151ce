"""deploy/ops/migrate: each service's `migrate` brings a new database to the migrations the running stack has,
finds nothing to do on the running stack's, and refuses what it cannot do."""

from conftest import SERVICES, drop_database, provision, psql, refused, role_urls, run_script

FRESH = "ops_migrated"


def migrations(database):
    return psql(database, " UNION ALL ".join(
        f"SELECT '{name}', version::text, name FROM {name}.schema_migrations" for name in SERVICES))


def test_migrate_brings_an_empty_database_to_the_stacks_migrations():
    drop_database(FRESH)
    provision(FRESH)
    try:
        result = run_script("migrate", **role_urls(FRESH))
        assert result.returncode == 0, result.stderr
        assert sorted(migrations(FRESH)) == sorted(migrations("kindred"))
        for name in SERVICES:
            assert f"migrate: {name} up to date" in result.stderr
    finally:
        drop_database(FRESH)


def test_migrate_on_the_running_stack_applies_nothing():
    before = migrations("kindred")
    result = run_script("migrate", "family")
    assert result.returncode == 0, result.stderr
    assert '"applied":[]' in result.stderr
    assert migrations("kindred") == before


def test_migrate_refuses_an_unknown_service():
    refused(run_script("migrate", "payments"), "unknown service 'payments'")


def test_migrate_refuses_without_the_executables(tmp_path):
    refused(run_script("migrate", KINDRED_BIN_DIR=str(tmp_path)), "kindred-identity is missing")


def test_migrate_reports_a_database_it_cannot_reach():
    urls = role_urls("kindred")
    urls["KINDRED_SOCIAL_DATABASE_URL"] = "postgresql://kindred_social@127.0.0.1:1/kindred"
    result = run_script("migrate", "social", **urls)
    assert result.returncode == 1
    assert "kindred-social migrate failed" in result.stderr and "unreachable" in result.stderr
