"""What the deploy tests share: the repository's paths, the four services with their ports, the release
executables and a database every service has migrated."""

import os
import pathlib
import subprocess
import sys

import pytest

REPO = pathlib.Path(__file__).resolve().parents[2]
# The test modules' servers take their ports from deploy/local/free_port.py, as Tests/run's do.
sys.path.insert(0, str(REPO / "deploy" / "local"))
DEPLOY = REPO / "deploy"
SERVICES = {"identity": 50051, "family": 50052, "social": 50053, "gamification": 50054}


@pytest.fixture(scope="session")
def bin_dir():
    """KINDRED_BIN_DIR (Tests/run sets it), else swift's release folder."""
    return pathlib.Path(os.environ.get("KINDRED_BIN_DIR") or subprocess.run(
        ["swift", "build", "-c", "release", "--show-bin-path"], cwd=REPO, capture_output=True, text=True,
        check=True).stdout.strip())


@pytest.fixture(scope="session")
def migrated_database(bin_dir):
    """The superuser's URL to a throwaway cluster each service migrated with `kindred-<name> migrate`."""
    if not os.environ.get("KINDRED_TEST_PG_DIR"):
        pytest.skip("KINDRED_TEST_PG_DIR and KINDRED_TEST_PG_PORT name a scratch cluster (Tests/run sets them)")
    script = REPO / "Tests" / "Deploy" / "migrated-database"
    environment = dict(os.environ, KINDRED_BIN_DIR=str(bin_dir))
    started = subprocess.run([str(script), "start"], capture_output=True, text=True, env=environment)
    assert started.returncode == 0, started.stderr
    yield started.stdout.strip()
    subprocess.run([str(script), "destroy"], capture_output=True, env=environment)
