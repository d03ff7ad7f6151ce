"""The systemd units verify (`systemd-analyze verify`, with stand-in executables), keep their sandbox, and the
install script refuses clearly, before changing anything, without root or without the executables."""

import base64
import os
import pathlib
import re
import shutil
import signal
import socket
import subprocess

import pytest

from conftest import DEPLOY, SERVICES
from free_port import free_port

SYSTEMD = DEPLOY / "systemd"
INSTALL = SYSTEMD / "install"


def directives(path):
    pairs = []
    for line in path.read_text().splitlines():
        match = re.match(r"^([A-Za-z]+)=(.*)$", line)
        if match:
            pairs.append(match.groups())
    return pairs


@pytest.fixture
def unit_dir(tmp_path):
    """The units with ExecStart pointed at stand-in executables: verify refuses a missing one."""
    for name in SERVICES:
        stand_in = tmp_path / f"kindred-{name}"
        stand_in.write_text("#!/bin/sh\n")
        stand_in.chmod(0o755)
    template = (SYSTEMD / "kindred@.service").read_text()
    (tmp_path / "kindred@.service").write_text(template.replace("/usr/local/bin/", f"{tmp_path}/"))
    shutil.copy(SYSTEMD / "kindred.target", tmp_path)
    shutil.copytree(SYSTEMD / "kindred@identity.service.d", tmp_path / "kindred@identity.service.d")
    return tmp_path


def test_units_verify(unit_dir):
    if shutil.which("systemd-analyze") is None:
        pytest.skip("systemd-analyze is not installed")
    units = [str(unit_dir / f"kindred@{name}.service") for name in SERVICES] + [str(unit_dir / "kindred.target")]
    done = subprocess.run(["systemd-analyze", "verify", *units], capture_output=True, text=True, cwd=unit_dir)
    # Unknown keys and bad values are only warnings: any output is a finding.
    assert done.returncode == 0 and done.stderr == "" and done.stdout == "", done.stderr + done.stdout


def test_units_are_sandboxed(unit_dir):
    if shutil.which("systemd-analyze") is None:
        pytest.skip("systemd-analyze is not installed")
    done = subprocess.run(
        ["systemd-analyze", "security", "--offline=yes", str(unit_dir / "kindred@family.service")],
        capture_output=True, text=True, cwd=unit_dir)
    exposure = re.search(r"Overall exposure level for \S+: ([0-9.]+)", done.stdout + done.stderr)
    assert exposure, done.stdout + done.stderr
    # systemd's scale: 0 is fully locked down, 10 not at all; below 2 it rates "OK".
    assert float(exposure.group(1)) < 2.0, done.stdout


def test_template_unit_runs_each_service_in_its_own_sandbox():
    unit = dict(directives(SYSTEMD / "kindred@.service"))
    assert unit["Type"] == "notify"
    assert unit["ExecStart"] == "/usr/local/bin/kindred-%i serve"
    assert unit["EnvironmentFile"] == "/etc/kindred/%i.env"
    assert unit["User"] == unit["Group"] == "kindred-%i"
    assert unit["Restart"] == "on-failure"
    for key, value in {"ProtectSystem": "strict", "ProtectHome": "yes", "PrivateTmp": "yes",
                       "NoNewPrivileges": "yes", "CapabilityBoundingSet": "", "AmbientCapabilities": ""}.items():
        assert unit[key] == value, key
    # The state directory is the only writable place; nothing else is opened up.
    assert "ReadWritePaths" not in unit
    assert unit["StateDirectory"] == "kindred/%i"
    wanted = dict(directives(SYSTEMD / "kindred.target"))["Wants"].split()
    assert wanted == [f"kindred@{name}.service" for name in SERVICES]


def test_service_tells_systemd_it_is_ready_once_it_serves(bin_dir, migrated_database, tmp_path):
    """Type=notify's side of the bargain, with the real executable: READY=1 arrives when the port answers,
    STOPPING=1 when SIGTERM starts the drain, and the process then exits 0."""
    executable = bin_dir / "kindred-identity"
    if not executable.exists():
        pytest.skip(f"{executable} is not built")
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as notifications:
        notifications.bind(str(tmp_path / "notify"))
        notifications.settimeout(60)
        port = free_port()
        environment = dict(os.environ, NOTIFY_SOCKET=str(tmp_path / "notify"),
                           KINDRED_IDENTITY_SECRET_KEY=base64.b64encode(os.urandom(32)).decode(),
                           KINDRED_DATA_KEYS="test-1:" + base64.b64encode(os.urandom(32)).decode())
        server = subprocess.Popen(
            [str(executable), "serve", "--listen", f"127.0.0.1:{port}", "--database-url", migrated_database,
             "--log-level", "warning"], env=environment)
        try:
            assert notifications.recv(256) == b"READY=1"
            socket.create_connection(("127.0.0.1", port), timeout=5).close()
            server.send_signal(signal.SIGTERM)
            assert notifications.recv(256) == b"STOPPING=1"
            assert server.wait(timeout=60) == 0
        finally:
            server.kill()


def run_install(*arguments, user=None):
    command = [str(INSTALL), *arguments]
    if user is not None:
        command = ["setpriv", f"--reuid={user}", f"--regid={user}", "--clear-groups", *command]
    return subprocess.run(command, capture_output=True, text=True, timeout=60)


def test_install_refuses_without_root():
    done = run_install(user=65534) if os.geteuid() == 0 else run_install()
    assert done.returncode != 0
    assert "run this as root" in done.stderr


def test_install_refuses_without_the_executables(tmp_path):
    if os.geteuid() != 0:
        pytest.skip("the root check comes first; this path needs root")
    before = pathlib.Path("/etc/kindred").exists()
    done = run_install("--bin-dir", str(tmp_path))
    assert done.returncode != 0
    assert f"no executable {tmp_path}/kindred-identity" in done.stderr
    assert pathlib.Path("/etc/kindred").exists() == before, "it changed the machine before refusing"


def test_install_refuses_executables_missing_libraries(tmp_path):
    if os.geteuid() != 0:
        pytest.skip("the root check comes first; this path needs root")
    if shutil.which("cc") is None:
        pytest.skip("no C compiler to make an executable with a missing library")
    library, program = tmp_path / "libkindredabsent.so", tmp_path / "main.c"
    program.write_text("int kindred_absent(void); int main(void) { return kindred_absent(); }\n")
    (tmp_path / "absent.c").write_text("int kindred_absent(void) { return 0; }\n")
    subprocess.run(["cc", "-shared", "-fPIC", "-o", str(library), str(tmp_path / "absent.c")], check=True)
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for name in SERVICES:
        subprocess.run(["cc", "-o", str(bin_dir / f"kindred-{name}"), str(program), f"-L{tmp_path}",
                        "-lkindredabsent"], check=True)
    done = run_install("--bin-dir", str(bin_dir))
    assert done.returncode != 0
    assert "kindred-identity needs shared libraries this machine lacks: libkindredabsent.so" in done.stderr
