"""gRPC calls of the operator scripts (run with the repo's venv python), through each server's reflection, so
they need no generated stubs and speak whatever the running stack serves.

  opsrpc.py signing-keys HOST:PORT                 the kids identity publishes, the signer first
  opsrpc.py smoke TARGETS CLIENT_ID SECRET_FILE    every service's health and one real read; exit 1 on a failure

TARGETS is `identity=HOST:PORT,family=…`. deploy/ops/demo_family.py uses `Stack` too.
"""

import pathlib
import sys
import uuid

import grpc
from google.protobuf import json_format, message_factory

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "local"))
from grpcli import reflection_pool, refusal_text  # noqa: E402

SERVICES = ["identity", "family", "social", "gamification"]


class Refused(Exception):
    """A call that ended with a status other than OK; str() is `CODE: message [REASON]`."""

    def __init__(self, text, code):
        super().__init__(text)
        self.code = code


def parse_targets(spec):
    targets = dict(item.split("=", 1) for item in spec.split(",") if "=" in item)
    missing = [name for name in SERVICES if name not in targets]
    if missing:
        raise SystemExit(f"targets name no address for {', '.join(missing)} (identity=HOST:PORT,family=...)")
    return targets


class Stack:
    """The four services at their addresses; `call` sends a request given as a dict and returns the answer as a
    dict (proto field names), or raises Refused."""

    def __init__(self, targets, timeout=10):
        self.targets = targets
        self.timeout = timeout
        self.channels = {}
        self.pools = {}

    def channel(self, service):
        if service not in self.channels:
            self.channels[service] = grpc.insecure_channel(self.targets[service])
            self.pools[service] = reflection_pool(self.channels[service])
        return self.channels[service]

    def call(self, service, method, request=None, token=None, grpc_service=None):
        channel = self.channel(service)
        pool = self.pools[service]
        name = grpc_service or f"kindred.{service}.v1.{service.capitalize()}Service"
        try:
            descriptor = pool.FindServiceByName(name).methods_by_name[method]
            request_class = message_factory.GetMessageClass(descriptor.input_type)
            response_class = message_factory.GetMessageClass(descriptor.output_type)
            invoke = channel.unary_unary(f"/{name}/{method}", request_serializer=request_class.SerializeToString,
                                         response_deserializer=response_class.FromString)
            metadata = [("authorization", f"Bearer {token}")] if token else []
            reply = invoke(json_format.ParseDict(request or {}, request_class()), timeout=self.timeout,
                           metadata=metadata)
        except grpc.RpcError as failure:
            raise Refused(refusal_text(failure, pool), failure.code()) from None
        except KeyError:
            raise Refused(f"{self.targets[service]} does not serve {name}/{method}", None) from None
        return json_format.MessageToDict(reply, preserving_proto_field_name=True)

    def health(self, service, name=""):
        reply = self.call(service, "Check", {"service": name}, grpc_service="grpc.health.v1.Health")
        return reply.get("status", "UNKNOWN")

    def close(self):
        for channel in self.channels.values():
            channel.close()


def signing_keys(address):
    stack = Stack({"identity": address})
    try:
        keys = stack.call("identity", "GetSigningKeys").get("keys", [])
    except Refused as refused:
        print(refused)
        return 1
    finally:
        stack.close()
    print("\n".join(key["kid"] for key in keys))
    return 0


# One real read per service, answered from its database with a service's client_credentials token.
def smoke_reads(stack, token):
    nobody = str(uuid.uuid4())
    return {
        "identity": lambda: f"{len(stack.call('identity', 'GetSigningKeys').get('keys', []))} signing keys",
        "family": lambda: "parental controls of an unknown user active: "
        + str(stack.call("family", "GetParentalControlsStatus", {"user_id": nobody}, token)
              .get("status", {}).get("active", False)),
        "social": lambda: "AreFriends of two unknown users: "
        + str(stack.call("social", "AreFriends", {"user_id": nobody, "other_user_id": str(uuid.uuid4())},
                         token).get("friends", False)),
        "gamification": lambda: f"{len(stack.call('gamification', 'ListPopularApps', {}, token).get('apps', []))}"
        " popular apps",
    }


def smoke(spec, client_id, secret_file):
    stack = Stack(parse_targets(spec), timeout=5)
    secret = pathlib.Path(secret_file).read_text().strip()
    failures = []
    token = None
    try:
        token = stack.call("identity", "Token", {"grant_type": "client_credentials", "client_id": client_id,
                                                 "client_secret": secret})["access_token"]
    except Refused as refused:
        failures.append(f"identity {stack.targets['identity']}: no service token for {client_id}: {refused}")
    reads = smoke_reads(stack, token)
    for service in SERVICES:
        where = f"{service:<13} {stack.targets[service]:<16}"
        try:
            names = ["", f"kindred.{service}.v1.{service.capitalize()}Service"]
            statuses = [stack.health(service, name) for name in names]
            if statuses != ["SERVING", "SERVING"]:
                raise Refused(f"health is {statuses[0]} (process), {statuses[1]} ({names[1]})", None)
            if token is None:
                raise Refused("read skipped: no token", None)
            print(f"{where} SERVING, read: {reads[service]()}")
        except Refused as refused:
            failures.append(f"{where} {refused}")
            print(f"{where} FAILED: {refused}")
    stack.close()
    for failure in failures:
        print(f"smoke: {failure}", file=sys.stderr)
    return 1 if failures else 0


def main(argv):
    if len(argv) == 3 and argv[1] == "signing-keys":
        return signing_keys(argv[2])
    if len(argv) == 5 and argv[1] == "smoke":
        return smoke(*argv[2:])
    print(__doc__, file=sys.stderr)
    return 64


if __name__ == "__main__":
    sys.exit(main(sys.argv))
