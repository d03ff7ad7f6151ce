"""Writes the public Swift value types: one struct per message, one enum per proto enum and oneof."""

from .model import FOUNDATION_TYPES, doc_lines
from .writer import Writer, header


def generate(schema, out_dir):
    """One `<file>.pb.swift` per proto file with messages or enums."""
    outputs = []
    for file in schema.generated_files():
        if not file.messages and not file.enums:
            continue
        w = Writer()
        if any(field.swift_value and field.swift_value[0] in FOUNDATION_TYPES
               for message in file.messages for field in message.all_fields):
            w.line("public import FoundationEssentials")
        for enum in file.top_enums:
            w.blank()
            write_enum(w, enum)
        for message in file.top_messages:
            w.blank()
            write_message(w, message)
        outputs.append((f"{out_dir}/{file.stem}.pb.swift", header(file.name) + "\n" + w.text()))
    return outputs


def write_doc(w, lines):
    for line in lines:
        w.line(f"/// {line}".rstrip())


def write_enum(w, enum):
    write_doc(w, enum.doc)
    w.open(f"public enum {enum.decl_name}: ProtoEnum")
    for (case, _), comment in zip(enum.values, enum.value_docs):
        if comment:
            write_doc(w, doc_lines(comment, ""))
        w.line(f"case {case}")
    w.line("/// A value this build does not know (from a newer peer); kept so that it survives a round trip.")
    w.line("case unrecognized(Int32)")
    w.blank()
    w.line(f"public init() {{ self = .{enum.values[0][0].strip('`')} }}")
    w.blank()
    w.open("public init(rawValue: Int32)")
    w.line("switch rawValue {")
    for case, number in enum.values:
        w.line(f"case {number}: self = .{case.strip('`')}")
    w.line("default: self = .unrecognized(rawValue)")
    w.line("}")
    w.close()
    w.blank()
    w.open("public var rawValue: Int32")
    w.line("switch self {")
    for case, number in enum.values:
        w.line(f"case .{case.strip('`')}: {number}")
    w.line("case .unrecognized(let value): value")
    w.line("}")
    w.close()
    w.close()


def write_message(w, message):
    write_doc(w, message.doc)
    w.open(f"public struct {message.decl_name}: ProtoMessage")
    w.line(f'public static var protoMessageName: String {{ "{message.full_name}" }}')
    w.blank()
    for field in message.fields:
        if field.comment:
            write_doc(w, doc_lines(field.comment, ""))
        w.line(f"public var {field.swift_name}: {field.swift_type()} = {field.swift_default()}")
    for oneof in message.oneofs:
        write_doc(w, oneof.doc)
        w.line(f"public var {oneof.swift_name}: {oneof.enum_name}? = nil")
    for oneof in message.oneofs:
        w.blank()
        write_doc(w, oneof.doc)
        w.open(f"public enum {oneof.enum_name}: Sendable, Equatable")
        for field in oneof.fields:
            if field.comment:
                write_doc(w, doc_lines(field.comment, ""))
            w.line(f"case {field.swift_name}({field.element_type()})")
        w.close()
    w.blank()
    w.line("public init() {}")
    write_memberwise_init(w, message)
    w.blank()
    w.open("public init(serializedBytes bytes: UnsafeRawBufferPointer, maxSize: Int) throws(MessageDecodingError)")
    w.line("self = try MessageCodec.decode(bytes, maxSize: maxSize)")
    w.close()
    w.blank()
    w.open("public func serializedBytes() throws(MessageEncodingError) -> [UInt8]")
    w.line("try MessageCodec.encode(self)")
    w.close()
    for enum in message.nested_enums:
        w.blank()
        write_enum(w, enum)
    for nested in message.nested_messages:
        w.blank()
        write_message(w, nested)
    w.close()


def write_memberwise_init(w, message):
    members = [(f.swift_name, f.swift_type(), f.swift_default()) for f in message.fields]
    members += [(o.swift_name, o.enum_name + "?", "nil") for o in message.oneofs]
    if not members:
        return
    w.blank()
    w.line("/// A message with the given fields; the others keep their defaults.")
    w.line("public init(")
    for i, (name, type_, default) in enumerate(members):
        comma = "," if i < len(members) - 1 else ""
        w.line(f"    {name}: {type_} = {default}{comma}")
    w.open(")")
    for name, _, _ in members:
        w.line(f"self.{name.strip('`')} = {name}")
    w.close()
