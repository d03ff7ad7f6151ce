"""The image's runtime stage carried out on a Debian 12 minbase file system (`deploy/image/rehearse`, no Docker
here): the four executables load every library from what the stage installed and serve, as uid 10001, until the
smoke check finds each SERVING and answering a real read. About 1 min, plus ~2 min the first time on a machine
(debootstrap downloads the base system from the Debian mirror)."""

import os
import subprocess

import pytest

from conftest import DEPLOY


@pytest.mark.skipif(os.geteuid() != 0, reason="the rehearsal needs root (debootstrap, chroot, mounts)")
def test_the_runtime_stage_serves_every_service(bin_dir):
    environment = dict(os.environ, KINDRED_BIN_DIR=str(bin_dir))
    run = subprocess.run([str(DEPLOY / "image" / "rehearse")], capture_output=True, text=True, env=environment,
                         timeout=900)
    assert run.returncode == 0, run.stderr[-3000:]
    served = {line.split()[0] for line in run.stdout.splitlines() if "SERVING, read:" in line}
    assert served == {"identity", "family", "social", "gamification"}, run.stdout
    assert "rehearsal passed" in run.stderr
