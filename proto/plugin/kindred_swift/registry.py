"""Writes the reflection registry: descriptor bytes as C arrays (cheap to compile), the index as Swift."""

from .writer import Writer, header

C_INCLUDE = "Shared/CKindredProto/include"
C_SOURCES = "Shared/CKindredProto/generated"
ACCESSORS = "CKindredProtoDescriptors"
ALL_PROTOS = "every proto under proto/"


def generate(schema, swift_dir):
    files = schema.files
    return [
        (f"{C_INCLUDE}/CKindredProto.h", umbrella_header(files)),
        (f"{C_INCLUDE}/module.modulemap", MODULE_MAP),
        (f"{C_INCLUDE}/{ACCESSORS}.h", accessors_header(schema)),
        (f"{C_SOURCES}/{ACCESSORS}.c", accessors_source(schema)),
        (f"{swift_dir}/ProtoFileRegistry.pb.swift", swift_registry(files)),
    ]


MODULE_MAP = """module CKindredProto {
    umbrella header "CKindredProto.h"
    export *
}
"""


def pb_c_header(file):
    return file.name[: -len(".proto")] + ".pb-c.h"


def umbrella_header(files):
    lines = [header(ALL_PROTOS), "// The protoc-c types of every Kindred proto, for Swift's `internal import CKindredProto`.",
             "#include <protobuf-c/protobuf-c.h>"]
    lines += [f'#include "{pb_c_header(f)}"' for f in files]
    lines.append(f'#include "{ACCESSORS}.h"')
    return "\n".join(lines) + "\n"


def all_messages(schema):
    return sorted(schema.all_messages(), key=lambda m: m.full_name)


def accessors_header(schema):
    lines = [header(ALL_PROTOS), "#ifndef CKINDREDPROTO_DESCRIPTORS_H", "#define CKINDREDPROTO_DESCRIPTORS_H", "",
             "#include <stddef.h>", "#include <protobuf-c/protobuf-c.h>", "",
             "// One serialized FileDescriptorProto, embedded for server reflection.",
             "typedef struct { const unsigned char *_Nonnull bytes; size_t length; } CKindredProtoEmbeddedFile;", "",
             "// Swift cannot take a stable address of an imported `const` global, so these shims return it.",
             "CKindredProtoEmbeddedFile CKindredProto_embedded_file(size_t index);"]
    for m in all_messages(schema):
        lines.append(f"const ProtobufCMessageDescriptor *_Nonnull {m.descriptor_accessor}(void);")
    lines += ["", "#endif"]
    return "\n".join(lines) + "\n"


def c_bytes(data):
    rows = []
    for i in range(0, len(data), 20):
        rows.append("    " + ", ".join(f"0x{b:02x}" for b in data[i:i + 20]) + ",")
    return "\n".join(rows)


def accessors_source(schema):
    lines = [header(ALL_PROTOS), '#include "CKindredProto.h"', ""]
    for i, file in enumerate(schema.files):
        data = serialized_descriptor(file)
        lines += [f"// {file.name}", f"static const unsigned char file_{i}[{max(len(data), 1)}] = {{", c_bytes(data), "};"]
    lines += ["", "static const CKindredProtoEmbeddedFile files[] = {"]
    lines += [f"    {{ file_{i}, sizeof file_{i} }}," for i in range(len(schema.files))]
    lines += ["};", "", "CKindredProtoEmbeddedFile CKindredProto_embedded_file(size_t index) {",
              "    return files[index];", "}", ""]
    for m in all_messages(schema):
        lines.append(f"const ProtobufCMessageDescriptor *{m.descriptor_accessor}(void) {{ return &{m.c_lower}__descriptor; }}")
    return "\n".join(lines) + "\n"


def serialized_descriptor(file):
    """The FileDescriptorProto as `protoc --descriptor_set_out` writes it: no comments, and no json_name
    (protoc adds those only for plugins). A client that already holds a file of the same name, such as
    Python's google.protobuf with its well-known types, accepts ours only if the two are identical."""
    proto = type(file.proto)()
    proto.CopyFrom(file.proto)
    proto.ClearField("source_code_info")
    for message in proto.message_type:
        clear_json_names(message)
    return proto.SerializeToString(deterministic=True)


def clear_json_names(message):
    for field in message.field:
        field.ClearField("json_name")
    for nested in message.nested_type:
        clear_json_names(nested)


def swift_list(items):
    return "[" + ", ".join(f'"{i}"' for i in items) + "]"


def swift_registry(files):
    w = Writer()
    w.open("extension ProtoFileRegistry")
    w.line("/// Every proto file compiled into Kindred, dependencies before the files that import them.")
    w.line("public static let files: [ProtoFileDescriptor] = [")
    w.level += 1
    for i, file in enumerate(files):
        w.line("ProtoFileDescriptor(")
        w.line(f'    name: "{file.name}",')
        w.line(f"    dependencies: {swift_list(file.proto.dependency)},")
        w.line(f"    serializedFileDescriptor: EmbeddedDescriptors.file(at: {i}),")
        w.line(f"    serviceNames: {swift_list(s.full_name for s in file.services)},")
        w.line("    symbols: [")
        for symbol in file.symbols():
            w.line(f'        "{symbol}",')
        w.line("    ]")
        w.line("),")
    w.level -= 1
    w.line("]")
    w.close()
    return header(ALL_PROTOS) + "\n" + w.text()
