"""deploy/ops/backup and restore: a backup restored into an empty database, then dropped and restored again,
holds the same rows, table by table; and the ways each refuses."""

import shutil

import pytest

from conftest import SERVICES, drop_database, psql, refused, role_urls, run_script

COPY = "ops_restored"


def row_digests(database):
    """{schema.table: (row count, digest of the sorted row digests)} over the services' schemas, in one query."""
    tables = [table for (table,) in psql(database, "SELECT schemaname || '.' || tablename FROM pg_tables WHERE "
                                         f"schemaname IN ({', '.join(repr(name) for name in SERVICES)}) ORDER BY 1")]
    if not tables:
        return {}
    rows = psql(database, " UNION ALL ".join(
        f"SELECT '{table}', count(*), coalesce(md5(string_agg(md5(t::text), '' ORDER BY md5(t::text))), '') "
        f"FROM {table} t" for table in tables))
    return {table: (int(count), digest) for table, count, digest in rows}


def steady_backup(directory):
    """A backup of the live database and its digests, taken when nothing wrote between (the services' background
    work may): (digests, backup directory)."""
    for attempt in range(5):
        before = row_digests("kindred")
        target = directory / f"backup-{attempt}"
        result = run_script("backup", str(target))
        assert result.returncode == 0, result.stderr
        if row_digests("kindred") == before:
            return before, target
    pytest.fail("the live database kept changing during five backups")


@pytest.fixture(scope="module")
def live_backup(tmp_path_factory):
    """One backup of the live database for the module, and the digests of what it holds."""
    return steady_backup(tmp_path_factory.mktemp("backups"))


@pytest.fixture
def copy_database():
    drop_database(COPY)
    yield COPY
    drop_database(COPY)


def test_backup_then_drop_then_restore_gives_the_same_rows(live_backup, copy_database):
    live, backup = live_backup
    assert {table.split(".")[0] for table in live} == set(SERVICES)
    assert sum(count for count, _ in live.values()) > 0
    assert sorted(path.name for path in backup.iterdir()) == ["MANIFEST", *sorted(f"{n}.dump" for n in SERVICES)]

    result = run_script("restore", "--database", copy_database, str(backup))
    assert result.returncode == 0, result.stderr
    assert row_digests(copy_database) == live

    for name in SERVICES:
        psql(copy_database, f"DROP SCHEMA {name} CASCADE")
    assert row_digests(copy_database) == {}
    result = run_script("restore", "--database", copy_database, str(backup))
    assert result.returncode == 0, result.stderr
    assert row_digests(copy_database) == live

    # The services can run on it as restored: every migration is already there.
    result = run_script("migrate", **role_urls(copy_database))
    assert result.returncode == 0, result.stderr
    assert result.stderr.count('"applied":[]') == len(SERVICES), result.stderr


def test_restored_schemas_belong_to_the_services_roles(live_backup, copy_database):
    _, backup = live_backup
    assert run_script("restore", "--database", copy_database, str(backup)).returncode == 0
    owners = psql(copy_database, "SELECT DISTINCT schemaname, tableowner FROM pg_tables WHERE schemaname IN "
                  f"({', '.join(repr(name) for name in SERVICES)}) ORDER BY 1")
    assert owners == [[name, f"kindred_{name}"] for name in sorted(SERVICES)]


def test_restore_refuses_a_database_that_is_not_empty(live_backup):
    _, backup = live_backup
    refused(run_script("restore", str(backup)), "restore into an empty database")


def test_restore_refuses_a_damaged_backup(live_backup, copy_database, tmp_path):
    backup = shutil.copytree(live_backup[1], tmp_path / "damaged")
    dump = backup / "social.dump"
    data = bytearray(dump.read_bytes())
    data[len(data) // 2] ^= 0xFF
    dump.write_bytes(bytes(data))
    refused(run_script("restore", "--database", copy_database, str(backup)), "does not match its checksum")


def test_restore_refuses_a_directory_that_is_no_backup(tmp_path):
    refused(run_script("restore", str(tmp_path)), "is not a backup made by deploy/ops/backup")


def test_backup_refuses_to_write_into_a_directory_that_is_not_empty(tmp_path):
    (tmp_path / "something").write_text("kept\n")
    refused(run_script("backup", str(tmp_path)), "is not empty")
    assert [path.name for path in tmp_path.iterdir()] == ["something"]


def test_backup_refuses_without_a_directory():
    refused(run_script("backup"), "name the directory")


def test_backup_refuses_an_unknown_service(tmp_path):
    refused(run_script("backup", str(tmp_path / "new"), "payments"), "unknown service 'payments'")


def test_backup_refuses_without_a_database(tmp_path):
    refused(run_script("backup", str(tmp_path / "new"), KINDRED_PG_DIR=str(tmp_path / "nowhere")),
            "no database URL")


def test_restore_refuses_a_database_name_beside_database_urls(live_backup):
    refused(run_script("restore", "--database", COPY, str(live_backup[1]), **role_urls("kindred")),
            "--database is for the local cluster")
