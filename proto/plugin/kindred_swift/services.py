"""Writes KindredAPI: per proto service, a namespace with its method descriptors, the protocol a
server implements (registration included), and a typed client over RPCClient."""

from . import naming
from .writer import Writer, header


def generate(schema, out_dir):
    """One `<file>+Service.swift` per proto file that declares services."""
    outputs = []
    for file in schema.generated_files():
        if not file.services:
            continue
        w = Writer()
        w.line("public import KindredMessages")
        w.line("public import KindredRPC")
        for service in file.services:
            methods = [Method(schema, m) for m in service.methods]
            w.blank()
            write_namespace(w, service, methods)
            w.blank()
            write_registration(w, service, methods)
        outputs.append((f"{out_dir}/{file.stem}+Service.swift", header(file.name) + "\n" + w.text()))
    return outputs


class Method:
    """One RPC as the generated Swift names and types it."""

    def __init__(self, schema, proto):
        self.name = proto.name
        self.member = naming.swift_member(naming.lower_camel(proto.name))
        self.request = schema.types[proto.input_type].swift_name
        self.response = schema.types[proto.output_type].swift_name
        self.client_streaming = proto.client_streaming
        self.server_streaming = proto.server_streaming
        # `option idempotency_level = NO_SIDE_EFFECTS;` marks a read: child-mode tokens may call it.
        self.read_only = proto.options.idempotency_level == proto.options.NO_SIDE_EFFECTS

    @property
    def register_call(self):
        return {(False, False): "registerUnary", (False, True): "registerServerStreaming",
                (True, False): "registerClientStreaming", (True, True): "registerBidirectionalStreaming",
                }[(self.client_streaming, self.server_streaming)]

    @property
    def parameters(self):
        """The handler's parameter list and the closure arguments that fill it."""
        first = (f"_ requests: RequestStream<{self.request}>" if self.client_streaming
                 else f"_ request: {self.request}")
        params = [first]
        args = ["requests" if self.client_streaming else "request"]
        if self.server_streaming:
            params.append(f"responses: ResponseStreamWriter<{self.response}>")
            args.append("responses")
        params.append("context: ServerContext")
        args.append("context")
        return params, args


def namespace_name(service):
    return naming.swift_package_prefix(service.full_name.rsplit(".", 1)[0]) + service.name


def write_namespace(w, service, methods):
    w.line(f"/// `{service.full_name}`: its method names, the protocol a server implements, and a typed client.")
    w.open(f"public enum {namespace_name(service)}")
    w.line("/// The fully-qualified service name, as health checks and reflection know it.")
    w.line(f'public static let serviceName = "{service.full_name}"')
    w.blank()
    w.line("/// The service's methods.")
    w.open("public enum Method")
    for m in methods:
        read_only = ", readOnly: true" if m.read_only else ""
        w.line(f'public static let {m.member} = MethodDescriptor(service: serviceName, method: "{m.name}"{read_only})')
    w.close()
    w.blank()
    w.line("/// What a server implements; conforming gives `registerMethods(with:)` for free.")
    w.open("public protocol Service: RPCService")
    for m in methods:
        params, _ = m.parameters
        returns = "" if m.server_streaming else f" -> {m.response}"
        w.line(f"/// `{m.name}`")
        w.line(f"func {m.member}({', '.join(params)}) async throws{returns}")
    w.close()
    w.blank()
    write_client(w, methods)
    w.close()


def write_client(w, methods):
    """Unary, server-streaming and client-streaming methods; bidirectional ones have no client yet."""
    w.line("/// A typed client over an `RPCClient`: one method per unary, server- or client-streaming RPC.")
    w.open("public struct Client: Sendable")
    w.line("/// The connection pool to the peer, shared by every call.")
    w.line("public let rpc: RPCClient")
    w.blank()
    w.line("/// A client whose calls go through `rpc`.")
    w.open("public init(_ rpc: RPCClient)")
    w.line("self.rpc = rpc")
    w.close()
    for m in methods:
        if m.client_streaming and m.server_streaming:
            continue
        w.blank()
        w.line(f"/// `{m.name}`")
        if m.client_streaming:
            w.line("/// `requests` writes the request messages; the call half-closes when it returns.")
            w.open(f"public func {m.member}(options: CallOptions = CallOptions(),"
                   f" requests: (ClientRequestWriter<{m.request}>) async throws -> Void)"
                   f" async throws(RPCError) -> {m.response}")
            w.line(f"try await rpc.clientStreaming(method: Method.{m.member}, options: options, requests: requests)")
        elif m.server_streaming:
            w.open(f"public func {m.member}(_ request: {m.request}, options: CallOptions = CallOptions())"
                   f" -> ClientResponseStream<{m.response}>")
            w.line(f"rpc.serverStreaming(method: Method.{m.member}, request: request, options: options)")
        else:
            w.open(f"public func {m.member}(_ request: {m.request}, options: CallOptions = CallOptions())"
                   f" async throws(RPCError) -> {m.response}")
            w.line(f"try await rpc.unary(method: Method.{m.member}, request: request, options: options)")
        w.close()
    w.close()


def write_registration(w, service, methods):
    name = namespace_name(service)
    w.open(f"extension {name}.Service")
    w.open("public func registerMethods(with router: inout RPCRouter)")
    for m in methods:
        params, args = m.parameters
        labels = ["_" if i == 0 else p.split(":")[0] for i, p in enumerate(params)]
        call_args = ", ".join(a if label == "_" else f"{label}: {a}" for label, a in zip(labels, args))
        w.line(f"router.{m.register_call}({name}.Method.{m.member}) {{ {', '.join(args)} in")
        w.level += 1
        w.line(f"try await self.{m.member}({call_args})")
        w.close()
    w.close()
    w.close()
