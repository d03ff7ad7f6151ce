"""The operator scripts (deploy/ops) against a running test stack: Tests/run's ops stage points this suite at the
services and cluster its interop stage started, and the scripts at them through their own environment:

  KINDRED_OPS_TARGETS    identity=HOST:PORT,family=…   the services
  KINDRED_OPS_RUN_DIR    where their pidfiles are (kindred-<name>.pid)
  KINDRED_PG_DIR, KINDRED_PG_PORT, PGPASSFILE           the cluster (database kindred, the services' roles)
  KINDRED_SECRETS_DIR    identity's secret key and the services' client secrets
  KINDRED_TEST_MAILDIR   the maildir the services deliver to
  KINDRED_BIN_DIR        the release executables
"""

import os
import pathlib
import subprocess
import sys

import pytest

REPO = pathlib.Path(__file__).resolve().parents[2]
# The interop suite's stubs and account helpers, not copied: the same protos, the same sign-up walk.
sys.path.insert(0, str(REPO / "Tests" / "Interop"))
from stubs import generate_stubs  # noqa: E402

generate_stubs(REPO / "proto")

SERVICES = ["identity", "family", "social", "gamification"]
REQUIRED = ["KINDRED_OPS_TARGETS", "KINDRED_OPS_RUN_DIR", "KINDRED_PG_DIR", "KINDRED_PG_PORT", "PGPASSFILE",
            "KINDRED_SECRETS_DIR", "KINDRED_TEST_MAILDIR", "KINDRED_BIN_DIR"]


def pytest_collection_modifyitems(config, items):
    missing = [name for name in REQUIRED if not os.environ.get(name)]
    if missing:
        raise pytest.UsageError(f"{', '.join(missing)} unset: Tests/run's ops stage sets them")


def targets():
    return dict(item.split("=", 1) for item in os.environ["KINDRED_OPS_TARGETS"].split(","))


def run_script(name, *args, **environment):
    """deploy/ops/NAME with the suite's environment plus `environment` (a value of None unsets it)."""
    env = dict(os.environ)
    for key, value in environment.items():
        if value is None:
            env.pop(key, None)
        else:
            env[key] = value
    return subprocess.run([str(REPO / "deploy" / "ops" / name), *args], env=env, capture_output=True, text=True,
                          timeout=150)


def refused(result, words):
    """The script refused with one line naming `words` and exit 2, having done nothing."""
    assert result.returncode == 2, (result.returncode, result.stdout, result.stderr)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and words in lines[0], result.stderr


def psql(database, sql):
    """Rows of SQL run as the cluster's superuser in DATABASE, each a list of column texts."""
    output = subprocess.run([str(REPO / "deploy" / "local" / "postgres"), "psql", "-d", database, "-tA",
                             "-F", "\t", "-c", sql], capture_output=True, text=True, check=True).stdout
    return [line.split("\t") for line in output.splitlines() if line]


def provision(database):
    """DATABASE made and provisioned like the stack's own: one schema per service, owned by its role, empty."""
    script = f'source deploy/local/lib.sh && pg_use "$KINDRED_PG_DIR" "$KINDRED_PG_PORT" && pg_provision {database}'
    subprocess.run(["bash", "-c", script], cwd=REPO, check=True, capture_output=True)


def drop_database(database):
    psql("postgres", f"DROP DATABASE IF EXISTS {database} WITH (FORCE)")


def role_urls(database):
    """The services' database URLs for DATABASE, as the scripts take them from the environment."""
    port = os.environ["KINDRED_PG_PORT"]
    return {f"KINDRED_{name.upper()}_DATABASE_URL": f"postgresql://kindred_{name}@127.0.0.1:{port}/{database}"
            for name in SERVICES}
