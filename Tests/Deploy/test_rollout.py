"""deploy/k8s/rollout against a stand-in kubectl that records its calls: migrations are applied and waited for
before anything that runs the new code, and a failed migration stops the rollout there."""

import os
import shutil
import subprocess

import pytest

from conftest import DEPLOY

ROLLOUT = DEPLOY / "k8s" / "rollout"
OVERLAY = DEPLOY / "k8s" / "overlays" / "small"

# Renders with the real kubectl; records every other call and answers `wait` with $KUBECTL_WAIT_STATUS.
STAND_IN = """#!/bin/sh
if [ "$1" = kustomize ]; then exec "$REAL_KUBECTL" "$@"; fi
echo "$*" >>"$KUBECTL_LOG"
case " $* " in
    *" wait "*) exit "$KUBECTL_WAIT_STATUS" ;;
    *" get deployment "*) echo deployment.apps/kindred-identity ;;
esac
exit 0
"""


def rollout(tmp_path, wait_status):
    real = shutil.which("kubectl")
    if real is None:
        pytest.fail("kubectl is not on PATH: it renders the manifests")
    (tmp_path / "kubectl").write_text(STAND_IN)
    (tmp_path / "kubectl").chmod(0o755)
    log = tmp_path / "calls"
    environment = dict(os.environ, PATH=f"{tmp_path}:{os.environ['PATH']}", REAL_KUBECTL=real,
                       KUBECTL_LOG=str(log), KUBECTL_WAIT_STATUS=str(wait_status))
    done = subprocess.run([str(ROLLOUT), str(OVERLAY)], capture_output=True, text=True, env=environment,
                          timeout=60)
    calls = log.read_text().replace(str(OVERLAY), "OVERLAY").splitlines() if log.exists() else []
    return done, [call for call in calls if call != "config current-context"]


def test_migrations_run_before_the_servers(tmp_path):
    done, calls = rollout(tmp_path, wait_status=0)
    assert done.returncode == 0, done.stderr
    migration = "app.kubernetes.io/component=migration"
    assert calls == [
        "apply -k OVERLAY -l app.kubernetes.io/component notin (server, migration)",
        f"-n kindred delete job -l {migration} --ignore-not-found --wait=true",
        f"apply -k OVERLAY -l {migration}",
        f"-n kindred wait --for=condition=complete job -l {migration} --timeout=10m",
        "apply -k OVERLAY",
        "-n kindred get deployment -l app.kubernetes.io/component=server -o name",
        "-n kindred rollout status deployment.apps/kindred-identity --timeout=10m",
    ], calls


def test_a_failed_migration_changes_nothing_else(tmp_path):
    done, calls = rollout(tmp_path, wait_status=1)
    assert done.returncode != 0
    assert "a migration Job did not complete: nothing else was changed" in done.stderr
    assert calls[-1].startswith("-n kindred logs -l app.kubernetes.io/component=migration"), calls
    assert "apply -k OVERLAY" not in calls
