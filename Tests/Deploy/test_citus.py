"""The Citus plan (deploy/citus/distribute.sql) fits the schemas the migrations make: read from pg_catalog of a
database every service has just migrated, the distribution key leads every primary key and unique key of each
distributed table, a foreign key between distributed tables joins colocated tables on their distribution
columns, and no foreign key ties a distributed table to one left out of the plan. Citus itself is not needed:
what it refuses (a unique key without the distribution column, a foreign key across shards) is in the catalog."""

import re
import subprocess

import pytest

from conftest import DEPLOY

PLAN = DEPLOY / "citus" / "distribute.sql"


def plan():
    """table → (distribution column, colocation group's root) for distributed tables, and reference tables."""
    text = PLAN.read_text()
    distributed = {}
    for table, column, colocate in re.findall(
        r"create_distributed_table\('([a-z_.]+)', '([a-z_]+)', colocate_with => '([a-z_.]+)'\)", text
    ):
        root = table if colocate == "none" else distributed[colocate][1]
        distributed[table] = (column, root)
    reference = set(re.findall(r"create_reference_table\('([a-z_.]+)'\)", text))
    return distributed, reference


def blocked():
    """The keys the plan says stop a table from being distributed yet (`-- blocked: NAME (why)`)."""
    return set(re.findall(r"^-- blocked: (\S+)", PLAN.read_text(), re.M))


@pytest.fixture(scope="module")
def catalog(migrated_database):
    return lambda sql: [
        line.split("|")
        for line in subprocess.run(
            ["psql", migrated_database, "-X", "-tA", "-v", "ON_ERROR_STOP=1", "-c", sql],
            capture_output=True, text=True, check=True).stdout.splitlines()
    ]


KEYS = """
SELECT c.oid::regclass::text, i.indexrelid::regclass::text,
       (SELECT string_agg(a.attname, ',' ORDER BY k.n) FROM unnest(i.indkey) WITH ORDINALITY k(attnum, n)
        JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum = k.attnum)
FROM pg_index i JOIN pg_class c ON c.oid = i.indrelid JOIN pg_namespace s ON s.oid = c.relnamespace
WHERE i.indisunique AND s.nspname IN ('identity', 'family', 'social', 'gamification')
"""

FOREIGN_KEYS = """
SELECT f.conname, f.conrelid::regclass::text, f.confrelid::regclass::text,
       (SELECT string_agg(a.attname, ',' ORDER BY k.n) FROM unnest(f.conkey) WITH ORDINALITY k(attnum, n)
        JOIN pg_attribute a ON a.attrelid = f.conrelid AND a.attnum = k.attnum),
       (SELECT string_agg(a.attname, ',' ORDER BY k.n) FROM unnest(f.confkey) WITH ORDINALITY k(attnum, n)
        JOIN pg_attribute a ON a.attrelid = f.confrelid AND a.attnum = k.attnum)
FROM pg_constraint f JOIN pg_namespace s ON s.oid = f.connamespace
WHERE f.contype = 'f' AND s.nspname IN ('identity', 'family', 'social', 'gamification')
"""

TABLES = """
SELECT c.oid::regclass::text FROM pg_class c JOIN pg_namespace s ON s.oid = c.relnamespace
WHERE c.relkind = 'r' AND s.nspname IN ('identity', 'family', 'social', 'gamification')
"""


def test_plan_names_tables_and_columns_that_exist(catalog):
    distributed, reference = plan()
    tables = {row[0] for row in catalog(TABLES)}
    assert set(distributed) | reference <= tables, sorted(set(distributed) | reference - tables)
    for table, (column, _) in distributed.items():
        assert catalog(f"SELECT 1 FROM pg_attribute WHERE attrelid = '{table}'::regclass "
                       f"AND attname = '{column}' AND NOT attisdropped") == [["1"]], f"{table}.{column}"


def key_violations(catalog, distributed):
    """Unique keys (primary keys, unique constraints and indexes) of distributed tables not led by the key."""
    return {
        index: f"{index} ({columns}) of {table} is not led by {distributed[table][0]}"
        for table, index, columns in catalog(KEYS)
        if table in distributed and columns.split(",")[0] != distributed[table][0]
    }


def foreign_key_violations(catalog, distributed, reference):
    """Foreign keys Citus would refuse: across colocation groups or off the distribution columns, between a
    distributed table and a local one, or from a reference table to a local or distributed one."""
    wrong = {}
    for name, child, parent, columns, parent_columns in catalog(FOREIGN_KEYS):
        name = f"{child.split('.')[0]}.{name}"
        if child in distributed and parent in distributed:
            pairs = dict(zip(parent_columns.split(","), columns.split(",")))
            if distributed[child][1] != distributed[parent][1]:
                wrong[name] = f"{child} and {parent} are not colocated"
            elif pairs.get(distributed[parent][0]) != distributed[child][0]:
                wrong[name] = f"{child}.{distributed[child][0]} does not meet {parent}'s key"
        elif child in distributed and parent not in reference:
            wrong[name] = f"{child} references {parent}, which is neither distributed nor a reference table"
        elif parent in distributed:
            kind = "reference" if child in reference else "local"
            wrong[name] = f"{child} ({kind}) references the distributed {parent}"
        elif child in reference and parent not in reference:
            wrong[name] = f"the reference table {child} references the local {parent}"
    return wrong


def test_distribution_key_leads_every_unique_key(catalog):
    distributed, _ = plan()
    wrong = key_violations(catalog, distributed)
    assert set(wrong) <= blocked(), "; ".join(why for name, why in wrong.items() if name not in blocked())


def test_foreign_keys_stay_on_one_shard(catalog):
    distributed, reference = plan()
    wrong = foreign_key_violations(catalog, distributed, reference)
    assert set(wrong) <= blocked(), "; ".join(f"{n}: {why}" for n, why in wrong.items() if n not in blocked())


def test_every_blocked_key_still_blocks(catalog):
    """A key a migration fixed leaves the plan's blocked list, so that the list stays the truth."""
    distributed, reference = plan()
    found = set(key_violations(catalog, distributed)) | set(
        foreign_key_violations(catalog, distributed, reference))
    assert blocked() <= found, f"no longer blocking: {sorted(blocked() - found)}"
