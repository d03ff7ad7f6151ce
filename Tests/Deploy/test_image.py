"""deploy/image/Dockerfile's runtime stage holds exactly what the release executables load: the Swift runtime
libraries `ldd` resolves into the toolchain, and the Debian packages owning every other library that the
executables or those Swift libraries name (NEEDED), apt bringing the packages' own dependencies. Docker is not
needed: the image's contents are read from the Dockerfile and compared with this machine's release build, made
by the same Swift on the same Debian."""

import pathlib
import re
import shutil
import subprocess

import pytest

from conftest import DEPLOY, SERVICES

DOCKERFILE = DEPLOY / "image" / "Dockerfile"
# In every Debian image; naming it would change nothing.
BASE_PACKAGES = {"libc6"}


def runtime_stage():
    return DOCKERFILE.read_text().split("\nFROM ")[-1]


def image_packages():
    install = re.search(r"apt-get install ([^&]*)&&", logical_lines(runtime_stage()))
    return {word for word in install.group(1).split() if not word.startswith("-")}


def image_swift_libraries():
    copy = re.search(r"COPY --from=build (.*/usr/lib/swift/linux/)$", logical_lines(runtime_stage()), re.M)
    return {pathlib.Path(source).name for source in copy.group(1).split()[:-1]}


def logical_lines(text):
    """The Dockerfile's instructions, each on one line (continuations joined)."""
    return text.replace("\\\n", " ")


@pytest.fixture(scope="module")
def executables(bin_dir):
    paths = [bin_dir / f"kindred-{name}" for name in SERVICES]
    missing = [str(path) for path in paths if not path.exists()]
    if missing:
        pytest.skip(f"no release build to compare with ({', '.join(missing)}): swift build -c release")
    return paths


@pytest.fixture(scope="module")
def swift_lib_dir():
    return pathlib.Path(shutil.which("swift")).resolve().parent.parent / "lib" / "swift" / "linux"


def resolved(path):
    """soname → the file ldd loads for it."""
    out = subprocess.run(["ldd", str(path)], capture_output=True, text=True, check=True).stdout
    assert "not found" not in out, out
    return {m.group(1): pathlib.Path(m.group(2)) for m in re.finditer(r"^\s*(\S+) => (\S+) \(", out, re.M)}


def needed(path):
    out = subprocess.run(["readelf", "-d", str(path)], capture_output=True, text=True, check=True).stdout
    return re.findall(r"\(NEEDED\)\s+Shared library: \[([^\]]+)\]", out)


def package_of(soname):
    out = subprocess.run(["dpkg", "-S", f"*/{soname}"], capture_output=True, text=True).stdout
    packages = {line.split(":")[0] for line in out.splitlines() if line.strip()}
    assert len(packages) == 1, f"{soname} is owned by {packages or 'no package'}"
    return packages.pop()


def test_release_build_is_release(executables):
    for path in executables:
        assert "libswiftSwiftOnoneSupport.so" not in needed(path), f"{path} is a debug build"


def test_image_copies_exactly_the_swift_libraries_loaded(executables, swift_lib_dir):
    loaded = set()
    for path in executables:
        loaded |= {soname for soname, file in resolved(path).items() if file.parent == swift_lib_dir}
    copied = image_swift_libraries()
    assert copied == loaded, f"missing from the image: {sorted(loaded - copied)}; not loaded: {sorted(copied - loaded)}"


def test_image_installs_exactly_the_packages_needed(executables, swift_lib_dir):
    files = {}
    for path in executables:
        files.update(resolved(path))
    direct = set()
    for path in executables + [files[name] for name in image_swift_libraries() if name in files]:
        direct |= {name for name in needed(path) if name not in files or files[name].parent != swift_lib_dir}
    wanted = {package_of(name) for name in direct} - BASE_PACKAGES
    installed = image_packages()
    assert installed == wanted, f"missing: {sorted(wanted - installed)}; not needed: {sorted(installed - wanted)}"


def test_image_runs_as_the_pods_user():
    stage = runtime_stage()
    assert re.search(r"^USER 10001:10001$", stage, re.M)
    manifests = (DEPLOY / "k8s" / "base" / "identity.yaml").read_text()
    assert "runAsUser: 10001" in manifests and "runAsGroup: 10001" in manifests
