"""Writes each message's internal bridge to its protobuf-c struct: C -> Swift once, Swift -> C in an arena."""

from .writer import Writer, header


def generate(schema, out_dir):
    """One `<file>+CBridge.pb.swift` per proto file with messages."""
    outputs = []
    for file in schema.generated_files():
        if not file.messages:
            continue
        w = Writer()
        w.line("internal import CKindredProto")
        for message in file.messages:
            w.blank()
            write_bridge(w, message)
        outputs.append((f"{out_dir}/{file.stem}+CBridge.pb.swift", header(file.name) + "\n" + w.text()))
    return outputs


def write_bridge(w, message):
    w.open(f"extension {message.swift_name}: CMessageBridge")
    w.line(f"typealias CStruct = {message.c_type}")
    w.blank()
    w.line(f"static var cDescriptor: UnsafePointer<ProtobufCMessageDescriptor> {{ {message.descriptor_accessor}() }}")
    w.blank()
    if message.all_fields:
        w.open("init(c m: UnsafePointer<CStruct>)")
        w.line("self.init()")
        for field in message.fields:
            w.line(f"self.{field.swift_name.strip('`')} = {read_field(field, 'm.pointee.' + field.c_name, 'm.pointee.n_' + field.c_name.strip('`'))}")
        for oneof in message.oneofs:
            write_oneof_read(w, oneof)
        w.close()
    else:
        w.line("init(c m: UnsafePointer<CStruct>) { self.init() }")
    w.blank()
    if message.all_fields:
        w.open("func fill(_ c: UnsafeMutablePointer<CStruct>, arena: CArena) throws(MessageEncodingError)")
        for field in message.fields:
            write_field_fill(w, field)
        for oneof in message.oneofs:
            write_oneof_fill(w, oneof)
        w.close()
    else:
        w.line("func fill(_ c: UnsafeMutablePointer<CStruct>, arena: CArena) throws(MessageEncodingError) {}")
    w.close()


# Reading: a Swift expression for the value held by the C lvalue `src`.

def read_value(field, src, present=False):
    """One value; `present` means a message pointer that is set whenever the field is (oneof, map value)."""
    kind = field.kind
    if kind == "scalar":
        return src
    if kind == "bool":
        return f"{src} != 0"
    if kind == "string":
        return f"CRead.string({src})"
    if kind == "bytes":
        return f"CRead.bytes({src})"
    if kind == "enum":
        return f"{field.type_ref.swift_name}(rawValue: CRead.enumValue({src}))"
    type_ = field.type_ref.swift_name
    member = "." + field.swift_value[1] if field.swift_value else ""
    if present:
        if member:
            return f"({src}.map {{ {type_}(c: $0) }} ?? {type_}()){member}"
        return f"{src}.map {{ {type_}(c: $0) }} ?? {type_}()"
    if field.unset_value:
        return f"{src}.map {{ {type_}(c: $0){member} }} ?? {field.unset_value}"
    return f"{src}.map {{ {type_}(c: $0){member} }}"


def read_field(field, src, count):
    if field.kind == "map":
        key, value = field.map_entry.all_fields
        entry = field.map_entry.c_type
        pair = f"({read_value(key, 'e.' + key.c_name)}, {read_value(value, 'e.' + value.c_name, present=True)})"
        return f"CRead.map({src}, {count}) {{ (e: {entry}) in {pair} }}"
    if not field.repeated:
        return read_value(field, src)
    if field.kind == "scalar":
        return f"CRead.array({src}, {count})"
    if field.kind == "message" and field.swift_value:
        return f"(CRead.messages({src}, {count}) as [{field.type_ref.swift_name}]).map(\\.{field.swift_value[1]})"
    if field.kind == "message":
        return f"CRead.messages({src}, {count})"
    return f"CRead.array({src}, {count}) {{ {read_value(field, '$0')} }}"


def write_oneof_read(w, oneof):
    w.line(f"switch m.pointee.{oneof.c_case}.rawValue {{")
    for field in oneof.fields:
        src = "m.pointee." + field.c_name
        if field.kind == "message":
            member = "." + field.swift_value[1] if field.swift_value else ""
            value = f"{src}.map {{ .{field.swift_name.strip('`')}({field.type_ref.swift_name}(c: $0){member}) }}"
        else:
            value = f".{field.swift_name.strip('`')}({read_value(field, src)})"
        w.line(f"case {field.number}: self.{oneof.swift_name.strip('`')} = {value}")
    w.line("default: break")
    w.line("}")


# Writing: a Swift expression for the C value of the Swift value `value`.

def write_value(field, value, path, present=False):
    kind = field.kind
    if kind == "scalar":
        return value
    if kind == "bool":
        return f"{value} ? 1 : 0"
    if kind == "string":
        return f'try arena.string({value}, field: "{path}")'
    if kind == "bytes":
        return f"arena.bytes({value})"
    if kind == "enum":
        return f"CWrite.enumValue({value})"
    if field.swift_value:
        # A Swift value goes back through its message struct.
        type_ = field.type_ref.swift_name
        if present:
            return f'try arena.message({type_}({value}), field: "{path}")'
        if field.unset_value:
            return f'try arena.optionalMessage({value} == {field.unset_value} ? nil : {type_}({value}), field: "{path}")'
        return f'try arena.optionalMessage({value}.map {{ {type_}($0) }}, field: "{path}")'
    if present:
        return f'try arena.message({value}, field: "{path}")'
    return f'try arena.optionalMessage({value}, field: "{path}")'


def write_field_fill(w, field):
    dst, value, path = "c.pointee." + field.c_name, "self." + field.swift_name.strip("`"), field.proto_name
    if field.kind == "map":
        key, val = field.map_entry.all_fields
        w.line(f"c.pointee.n_{field.c_name.strip('`')} = {value}.count")
        w.line(f"{dst} = try arena.mapEntries({value}, field: \"{path}\", "
               f"descriptor: {field.map_entry.descriptor_accessor}()) {{")
        w.line(f"    (e: UnsafeMutablePointer<{field.map_entry.c_type}>, key, value) throws(MessageEncodingError) in")
        w.line(f"    e.pointee.{key.c_name} = {write_value(key, 'key', path)}")
        w.line(f"    e.pointee.{val.c_name} = {write_value(val, 'value', path, present=True)}")
        w.line("}")
        return
    if not field.repeated:
        w.line(f"{dst} = {write_value(field, value, path)}")
        return
    w.line(f"c.pointee.n_{field.c_name.strip('`')} = {value}.count")
    kind = field.kind
    if kind == "scalar":
        w.line(f"{dst} = arena.array({value})")
    elif kind == "string":
        w.line(f'{dst} = try arena.strings({value}, field: "{path}")')
    elif kind == "message" and field.swift_value:
        w.line(f'{dst} = try arena.messages({value}.map {{ {field.type_ref.swift_name}($0) }}, field: "{path}")')
    elif kind == "message":
        w.line(f'{dst} = try arena.messages({value}, field: "{path}")')
    else:
        w.line(f"{dst} = arena.array({value}) {{ {write_value(field, '$0', path)} }}")


def write_oneof_fill(w, oneof):
    w.line(f"switch self.{oneof.swift_name.strip('`')} {{")
    for field in oneof.fields:
        w.line(f"case .{field.swift_name.strip('`')}(let value)?:")
        w.line(f"    c.pointee.{oneof.c_case} = CWrite.oneofCase({field.number})")
        w.line(f"    c.pointee.{field.c_name} = {write_value(field, 'value', field.proto_name, present=True)}")
    w.line("case nil: break")
    w.line("}")
