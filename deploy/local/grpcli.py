"""A small grpcurl for the local stack, on grpcio and server reflection (run it with the repo's venv python).

  grpcli.py health HOST:PORT [SERVICE] [--wait SECONDS]   prints the health status; exit 0 only if SERVING
  grpcli.py list HOST:PORT                                 services the server lists through reflection
  grpcli.py describe HOST:PORT SYMBOL                      a service's methods or a message's fields
  grpcli.py call HOST:PORT pkg.Service/Method [JSON] [--token JWT] [--header KEY=VALUE]...
               [--send-file FIELD=FILE] [--save-file FIELD=FILE]
                                                           a call; request and responses as JSON; a refusal
                                                           prints its status, message and ErrorInfo reason

A client-streaming call sends JSON as its first message, then with --send-file FILE's bytes in FIELD, 1 MiB a
message (UploadPhoto: '{"metadata": {...}}' --send-file chunk=photo.jpg). With --save-file, a streaming
response's FIELD bytes go to FILE instead of the screen (DownloadPhoto: --save-file chunk=photo.jpg).

Responses print as grpcurl prints them (proto3 JSON): lowerCamelCase names, RFC 3339 timestamps
("createdAt": "2026-11-29T00:07:33.476653Z"), a FieldMask as "displayName,bio", int64 and bytes as strings.
A request may spell its fields either way (snake_case or lowerCamelCase).

Over TLS (a stack started with KINDRED_TLS=1): KINDRED_TLS_DIR=var/tls grpcli.py ... uses var/tls/ca.pem and the
kindred-cli client certificate.

A guardian opens a minor's parental-control settings with the PIN, as the app's settings screen does
(GetParentalControlsStatus, which needs no PIN, says whether one is set):

  grpcli.py call 127.0.0.1:50052 kindred.family.v1.FamilyService/VerifyGuardianPin \
      '{"minor_user_id": "MINOR", "pin": "2580"}' --token "$GUARDIAN_TOKEN"
  grpcli.py call 127.0.0.1:50052 kindred.family.v1.FamilyService/GetParentalControls \
      '{"user_id": "MINOR", "guardian_session": "SESSION"}' --token "$GUARDIAN_TOKEN"

Without guardian_session the second call prints
PERMISSION_DENIED: Enter the guardian PIN to open these settings. [GUARDIAN_SESSION_REQUIRED]
"""

import argparse
import os
import pathlib
import sys
import time

import grpc
from google.protobuf import descriptor_pool, json_format, message_factory
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha.proto_reflection_descriptor_database import ProtoReflectionDescriptorDatabase


def open_channel(address):
    """h2c, or TLS 1.3 with the local CA and the kindred-cli certificate when KINDRED_TLS_DIR names the
    certificates of a KINDRED_TLS=1 stack (deploy/local/tls-certificates)."""
    directory = os.environ.get("KINDRED_TLS_DIR")
    if not directory:
        return grpc.insecure_channel(address)
    read = lambda name: pathlib.Path(directory, name).read_bytes()
    return grpc.secure_channel(address, grpc.ssl_channel_credentials(
        root_certificates=read("ca.pem"), private_key=read("kindred-cli.key"),
        certificate_chain=read("kindred-cli.pem")))


def health(args):
    deadline = time.monotonic() + args.wait
    status, error = None, None
    with open_channel(args.address) as channel:
        stub = health_pb2_grpc.HealthStub(channel)
        while True:
            try:
                # wait_for_ready: grpcio's Python client drives a connection (a TLS handshake) only while a call
                # waits on it.
                reply = stub.Check(health_pb2.HealthCheckRequest(service=args.service), timeout=2,
                                   wait_for_ready=True)
                status, error = health_pb2.HealthCheckResponse.ServingStatus.Name(reply.status), None
            except grpc.RpcError as failure:
                status, error = None, f"{failure.code().name}: {failure.details()}"
            if status == "SERVING" or time.monotonic() >= deadline:
                break
            time.sleep(0.25)
    print(status or error)
    return 0 if status == "SERVING" else 1


def reflection_pool(channel):
    return descriptor_pool.DescriptorPool(ProtoReflectionDescriptorDatabase(channel))


def list_services(args):
    with open_channel(args.address) as channel:
        for name in ProtoReflectionDescriptorDatabase(channel).get_services():
            print(name)
    return 0


def describe(args):
    with open_channel(args.address) as channel:
        pool = reflection_pool(channel)
        try:
            service = pool.FindServiceByName(args.symbol)
            for method in service.methods:
                streaming = "stream " if method.server_streaming else ""
                print(f"rpc {method.name}({method.input_type.full_name}) returns ({streaming}{method.output_type.full_name})")
        except KeyError:
            for field in pool.FindMessageTypeByName(args.symbol).fields:
                print(f"{field.name} = {field.number}")
    return 0


def refusal_text(failure, pool):
    """`CODE: message`, with the ErrorInfo reason when the server sent one (google.rpc's types come from the
    server's reflection, as every Kindred service serves them)."""
    text = f"{failure.code().name}: {failure.details()}"
    details = dict(failure.trailing_metadata() or ()).get("grpc-status-details-bin")
    if not details:
        return text
    try:
        status_class = message_factory.GetMessageClass(pool.FindMessageTypeByName("google.rpc.Status"))
        info_class = message_factory.GetMessageClass(pool.FindMessageTypeByName("google.rpc.ErrorInfo"))
    except KeyError:
        return text
    reasons = [info_class.FromString(detail.value).reason for detail in status_class.FromString(details).details
               if detail.type_url.endswith("/google.rpc.ErrorInfo")]
    return f"{text} [{reasons[0]}]" if reasons else text


def call_metadata(args):
    """The call's metadata: the bearer token, then every --header KEY=VALUE as given."""
    metadata = [("authorization", f"Bearer {args.token}")] if args.token else []
    for header in args.header:
        key, separator, value = header.partition("=")
        if not separator:
            raise SystemExit(f"grpcli.py: --header takes KEY=VALUE, not {header!r}")
        metadata.append((key.strip().lower(), value))
    return metadata


CHUNK_BYTES = 1024 * 1024


def field_and_path(option, text):
    """FIELD and FILE of a --send-file or --save-file FIELD=FILE."""
    field, separator, path = (text or "").partition("=")
    if text and not (separator and field and path):
        raise SystemExit(f"grpcli.py: {option} takes FIELD=FILE, not {text!r}")
    return field, path


def request_messages(first, request_class, send_file):
    """The first message, then the file's bytes in `field`, a message per 1 MiB chunk."""
    yield first
    field, path = field_and_path("--send-file", send_file)
    if not field:
        return
    with open(path, "rb") as source:
        while chunk := source.read(CHUNK_BYTES):
            yield request_class(**{field: chunk})


def show(reply, save):
    """Prints a reply as JSON, its `field` bytes appended to the saved file instead when one is named."""
    field, output = save
    if field and getattr(reply, field, b""):
        output.write(getattr(reply, field))
        reply.ClearField(field)
    if reply.ListFields() or not field:
        print(json_format.MessageToJson(reply, indent=2))


def call(args):
    service_name, _, method_name = args.method.lstrip("/").rpartition("/")
    with open_channel(args.address) as channel:
        pool = reflection_pool(channel)
        method = pool.FindServiceByName(service_name).methods_by_name[method_name]
        request_class = message_factory.GetMessageClass(method.input_type)
        response_class = message_factory.GetMessageClass(method.output_type)
        request = json_format.Parse(args.json, request_class())
        path = f"/{service_name}/{method_name}"
        kinds = {(False, False): channel.unary_unary, (False, True): channel.unary_stream,
                 (True, False): channel.stream_unary, (True, True): channel.stream_stream}
        invoke = kinds[(method.client_streaming, method.server_streaming)](
            path, request_serializer=request_class.SerializeToString,
            response_deserializer=response_class.FromString)
        if method.client_streaming:
            request = request_messages(request, request_class, args.send_file)
        field, save_path = field_and_path("--save-file", args.save_file)
        try:
            with open(save_path, "wb") if save_path else open(os.devnull, "wb") as output:
                replies = invoke(request, timeout=args.timeout, metadata=call_metadata(args))
                for reply in replies if method.server_streaming else [replies]:
                    show(reply, (field, output))
        except grpc.RpcError as failure:
            print(refusal_text(failure, pool), file=sys.stderr)
            return 1
    return 0


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True)
    command = commands.add_parser("health")
    command.add_argument("address")
    command.add_argument("service", nargs="?", default="")
    command.add_argument("--wait", type=float, default=0, help="keep asking up to this many seconds")
    command.set_defaults(run=health)
    command = commands.add_parser("list")
    command.add_argument("address")
    command.set_defaults(run=list_services)
    command = commands.add_parser("describe")
    command.add_argument("address")
    command.add_argument("symbol")
    command.set_defaults(run=describe)
    command = commands.add_parser("call")
    command.add_argument("address")
    command.add_argument("method")
    command.add_argument("json", nargs="?", default="{}")
    command.add_argument("--timeout", type=float, default=10)
    command.add_argument("--token", help="an access token, sent as authorization: Bearer TOKEN")
    command.add_argument("--header", action="append", default=[], metavar="KEY=VALUE",
                         help="metadata to send; may be repeated")
    command.add_argument("--send-file", metavar="FIELD=FILE",
                         help="client streaming: after the JSON message, FILE's bytes in FIELD, 1 MiB a message")
    command.add_argument("--save-file", metavar="FIELD=FILE", help="write the responses' FIELD bytes to FILE")
    command.set_defaults(run=call)
    args = parser.parse_args()
    return args.run(args)


if __name__ == "__main__":
    sys.exit(main())
