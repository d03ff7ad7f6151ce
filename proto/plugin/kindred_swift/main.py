"""Entry point: reads protoc's CodeGeneratorRequest on stdin, runs each generator, writes the response.

Every generator is a function `generate(schema) -> [(path, content)]` with paths relative to the
repository root (protoc's output directory). To add one (service stubs, say), write a module beside
this one and append it to GENERATORS: nothing else here changes.
"""

import sys

from google.protobuf.compiler import plugin_pb2

from . import api_docs, registry, services, swift_bridge, swift_types
from .model import GeneratorError
from .schema import Schema

MESSAGES_DIR = "Shared/KindredMessages/Generated"
SERVICES_DIR = "Shared/KindredAPI/Generated"


def generate_messages(schema):
    """Swift value types, their protobuf-c bridges, and the reflection registry (C bytes + Swift index)."""
    return (swift_types.generate(schema, MESSAGES_DIR)
            + swift_bridge.generate(schema, MESSAGES_DIR)
            + registry.generate(schema, MESSAGES_DIR))


def generate_services(schema):
    """Per proto service: method descriptors, the server protocol and its registration (KindredAPI)."""
    return services.generate(schema, SERVICES_DIR)


def generate_api_docs(schema):
    """Services/<Name>/API.md per product service: its RPCs, messages and refusals (read from the Swift
    sources under the `sources=<repository>` parameter, which proto/generate passes)."""
    parameters = dict(p.split("=", 1) for p in schema.parameter.split(",") if "=" in p)
    if "sources" not in parameters:
        raise GeneratorError("the API reference needs the parameter sources=<repository root>")
    return api_docs.generate(schema, parameters["sources"])


GENERATORS = [generate_messages, generate_services, generate_api_docs]


def main():
    request = plugin_pb2.CodeGeneratorRequest.FromString(sys.stdin.buffer.read())
    response = plugin_pb2.CodeGeneratorResponse()
    try:
        schema = Schema(request)
        outputs = [output for generator in GENERATORS for output in generator(schema)]
    except GeneratorError as error:
        response.error = str(error)
    else:
        for path, content in sorted(outputs):
            response.file.add(name=path, content=content)
    sys.stdout.buffer.write(response.SerializeToString())
