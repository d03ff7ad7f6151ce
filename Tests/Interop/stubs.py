"""Python stubs for every proto of the repository, generated at import time with grpcio-tools' protoc."""

import atexit
import pathlib
import shutil
import sys
import tempfile

import grpc
from grpc_tools import protoc


def generate_stubs(proto_dir):
    """protoc (grpcio-tools) over every proto but google/protobuf (the protobuf package has those) into a temp dir."""
    if not proto_dir.is_dir():
        raise RuntimeError(f"no proto directory at {proto_dir}")
    out = pathlib.Path(tempfile.mkdtemp(prefix="kindred-interop-stubs-"))
    # Imported modules stay loaded once their files are gone; nothing is imported from here after exit.
    atexit.register(shutil.rmtree, out, ignore_errors=True)
    bundled = pathlib.Path(protoc.__file__).parent / "_proto"
    files = sorted(str(p.relative_to(proto_dir)) for p in proto_dir.rglob("*.proto")
                   if not str(p.relative_to(proto_dir)).startswith("google/protobuf/"))
    status = protoc.main(["protoc", f"-I{proto_dir}", f"-I{bundled}", f"--python_out={out}",
                          f"--grpc_python_out={out}", *files])
    if status != 0:
        raise RuntimeError(f"protoc failed ({status}) on the protos in {proto_dir}")
    # The generated grpc/health/..., grpc/testing/... live beside grpcio's own `grpc` package: extend its path
    # so that `grpc.testing.test_pb2` resolves here; google/rpc and kindred/... come from the temp dir too.
    # grpcio aliases grpc.health and grpc.reflection to the grpcio-health-checking / grpcio-reflection packages
    # when they are installed (deploy/local/grpcli.py uses them); the suite tests the repository's own protos.
    for alias in ("grpc.health", "grpc.reflection"):
        sys.modules.pop(alias, None)
    grpc.__path__.append(str(out / "grpc"))
    sys.path.insert(0, str(out))
    return out
