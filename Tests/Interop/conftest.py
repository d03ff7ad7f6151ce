"""Interop suite setup: Python stubs generated from the repository's protos, and the servers under test.

KINDRED_INTEROP_TARGETS names the running servers, "interop=HOST:PORT,identity=HOST:PORT,..." (Tests/run sets
it); "interop" is kindred-interop-server (grpc.testing.TestService), every other name a kindred service.
KINDRED_PROTO_DIR overrides the proto directory (default: <repo>/proto).
KINDRED_TLS_DIR (KINDRED_TLS=1 Tests/run sets it) names the certificates of servers that speak TLS 1.3 with mutual
TLS: channels then use its ca.pem and the kindred-cli client certificate.
"""

import os
import pathlib
import sys

import grpc
import pytest

from stubs import generate_stubs

REPO = pathlib.Path(__file__).resolve().parents[2]
# The test modules' servers take their ports from deploy/local/free_port.py, as Tests/run's do.
sys.path.insert(0, str(REPO / "deploy" / "local"))
PROTO_DIR = pathlib.Path(os.environ.get("KINDRED_PROTO_DIR", REPO / "proto"))

# Before any test module imports kindred.*, grpc.health.* or google.rpc.*.
generate_stubs(PROTO_DIR)


def parse_targets():
    spec = os.environ.get("KINDRED_INTEROP_TARGETS", "")
    targets = {}
    for item in filter(None, (part.strip() for part in spec.split(","))):
        name, _, address = item.partition("=")
        targets[name] = address
    return targets


TARGETS = parse_targets()
TLS_DIR = os.environ.get("KINDRED_TLS_DIR")


def open_channel(address, options=()):
    """A channel to a server under test: h2c, or TLS with the kindred-cli certificate under KINDRED_TLS_DIR."""
    if not TLS_DIR:
        return grpc.insecure_channel(address, options=list(options))
    read = lambda name: (pathlib.Path(TLS_DIR) / name).read_bytes()
    credentials = grpc.ssl_channel_credentials(
        root_certificates=read("ca.pem"), private_key=read("kindred-cli.key"), certificate_chain=read("kindred-cli.pem"))
    return grpc.secure_channel(address, credentials, options=list(options))


def nghttp_arguments(address):
    """nghttp's URL prefix for a server under test and, over TLS, the client certificate it presents."""
    if not TLS_DIR:
        return f"http://{address}", []
    return f"https://{address}", ["--cert", f"{TLS_DIR}/kindred-cli.pem", "--key", f"{TLS_DIR}/kindred-cli.key"]


def tls_environment(name):
    """The KINDRED_TLS_* settings a service `name` the suite starts itself needs to reach its TLS peers."""
    if not TLS_DIR:
        return {}
    return {"KINDRED_TLS_CERT": f"{TLS_DIR}/kindred-{name}.pem", "KINDRED_TLS_KEY": f"{TLS_DIR}/kindred-{name}.key",
            "KINDRED_TLS_CA": f"{TLS_DIR}/ca.pem"}
SERVICE_NAMES = sorted(name for name in TARGETS if name != "interop")


def pytest_generate_tests(metafunc):
    """`target` runs a test against every server; `service` against every kindred service only."""
    if "target" in metafunc.fixturenames:
        metafunc.parametrize("target", sorted(TARGETS), indirect=True)
    if "service" in metafunc.fixturenames:
        metafunc.parametrize("service", SERVICE_NAMES, indirect=True)


def pytest_collection_modifyitems(config, items):
    if not TARGETS:
        raise pytest.UsageError("KINDRED_INTEROP_TARGETS is empty: nothing to test (Tests/run sets it)")


class Target:
    """A server under test: its name, address and the gRPC service names it must serve."""

    def __init__(self, name, address):
        self.name = name
        self.address = address
        self.host, _, port = address.rpartition(":")
        self.port = int(port)

    @property
    def own_services(self):
        if self.name == "interop":
            return ["grpc.testing.TestService"]
        # A service's own API is expected once its proto exists (service protos land with their own issues).
        if (PROTO_DIR / "kindred" / self.name).is_dir():
            return [f"kindred.{self.name}.v1.{self.name.capitalize()}Service"]
        return []

    @property
    def health_names(self):
        """Names Health/Check must answer SERVING for: the whole server ("") and each service it serves."""
        return ["", *self.own_services]

    def channel(self, **options):
        return open_channel(self.address, options.items())


@pytest.fixture(scope="session")
def target(request):
    return Target(request.param, TARGETS[request.param])


@pytest.fixture(scope="session")
def service(request):
    return Target(request.param, TARGETS[request.param])


@pytest.fixture(scope="session")
def interop():
    if "interop" not in TARGETS:
        pytest.fail("KINDRED_INTEROP_TARGETS has no interop=HOST:PORT (kindred-interop-server)")
    return Target("interop", TARGETS["interop"])


@pytest.fixture
def channel(target):
    with target.channel() as channel:
        yield channel


@pytest.fixture
def interop_channel(interop):
    with interop.channel() as channel:
        yield channel


def service_stub(name, stub_class):
    """A stub of kindred service `name` on its target, open for the session."""
    if name not in TARGETS:
        pytest.fail(f"KINDRED_INTEROP_TARGETS has no {name}=HOST:PORT")
    with open_channel(TARGETS[name]) as channel:
        yield stub_class(channel)


@pytest.fixture(scope="session")
def identity():
    """A stub of kindred.identity.v1.IdentityService on the identity target."""
    from kindred.identity.v1 import identity_pb2_grpc
    yield from service_stub("identity", identity_pb2_grpc.IdentityServiceStub)


@pytest.fixture(scope="session")
def family():
    """A stub of kindred.family.v1.FamilyService on the family target."""
    from kindred.family.v1 import family_pb2_grpc
    yield from service_stub("family", family_pb2_grpc.FamilyServiceStub)


@pytest.fixture(scope="session")
def social():
    """A stub of kindred.social.v1.SocialService on the social target."""
    from kindred.social.v1 import social_pb2_grpc
    yield from service_stub("social", social_pb2_grpc.SocialServiceStub)


@pytest.fixture(scope="session")
def gamification():
    """A stub of kindred.gamification.v1.GamificationService on the gamification target."""
    from kindred.gamification.v1 import gamification_pb2_grpc
    yield from service_stub("gamification", gamification_pb2_grpc.GamificationServiceStub)
