"""A model of the protos with every Swift and C name resolved, shared by all the generators."""

from google.protobuf.descriptor_pb2 import FieldDescriptorProto as F

from . import naming


class GeneratorError(Exception):
    """A proto this generator refuses, with the reason; protoc prints it and fails."""


SCALARS = {
    F.TYPE_INT32: ("Int32", "0"), F.TYPE_SINT32: ("Int32", "0"), F.TYPE_SFIXED32: ("Int32", "0"),
    F.TYPE_INT64: ("Int64", "0"), F.TYPE_SINT64: ("Int64", "0"), F.TYPE_SFIXED64: ("Int64", "0"),
    F.TYPE_UINT32: ("UInt32", "0"), F.TYPE_FIXED32: ("UInt32", "0"),
    F.TYPE_UINT64: ("UInt64", "0"), F.TYPE_FIXED64: ("UInt64", "0"),
    F.TYPE_FLOAT: ("Float", "0"), F.TYPE_DOUBLE: ("Double", "0"), F.TYPE_BOOL: ("Bool", "false"),
}


# Well-known messages whose fields the Swift code spells as Swift's own types, as swift-protobuf users expect
# (a Timestamp is a `Date`): full name -> (Swift type, the member of the message struct that gives it, and the
# value that stands for an unset field, or None to keep presence as an Optional). The message struct stays, and
# has an init from the Swift value: the bridge converts through it at the edge, so handlers never do.
SWIFT_VALUE_TYPES = {
    "google.protobuf.Timestamp": ("Date", "date", None),
    "google.type.Date": ("DateComponents", "components", None),
    # An absent mask and an empty one name the same fields: none.
    "google.protobuf.FieldMask": ("[String]", "paths", "[]"),
}
# The Swift types above that come from Foundation: a generated file that uses one imports FoundationEssentials.
FOUNDATION_TYPES = {"Date", "DateComponents"}


def doc_lines(comment, fallback):
    """A proto comment as the lines of a Swift `///` comment (the fallback when there is none)."""
    lines = [line[1:] if line.startswith(" ") else line for line in comment.strip("\n").split("\n")]
    while lines and not lines[-1].strip():
        lines.pop()
    return [line.rstrip() for line in lines] if any(l.strip() for l in lines) else [fallback]


class EnumModel:
    def __init__(self, proto, full_name, swift_name, file, path):
        self.proto, self.full_name, self.swift_name, self.file = proto, full_name, swift_name, file
        self.doc = doc_lines(file.comment(path), f"`{full_name}`")
        self.value_docs = [file.comment(path + (2, i)) for i in range(len(proto.value))]
        self.decl_name = swift_name.split(".")[-1]
        self.values = [(naming.enum_case_name(proto.name, v.name), v.number) for v in proto.value]
        numbers = [n for _, n in self.values]
        if len(set(numbers)) != len(numbers):
            raise GeneratorError(f"{full_name}: enum aliases (allow_alias) are not supported")
        if not self.values or self.values[0][1] != 0:
            raise GeneratorError(f"{full_name}: the first value of a proto3 enum must be 0")


class FieldModel:
    def __init__(self, proto, message, comment):
        self.proto, self.message, self.comment = proto, message, comment
        self.number, self.proto_name = proto.number, proto.name
        self.swift_name = naming.swift_member(naming.lower_camel(proto.name))
        self.c_name = naming.swift_c_member(naming.c_field_name(proto.name))
        self.repeated = proto.label == F.LABEL_REPEATED
        self.oneof = None
        self.type_ref = None   # EnumModel or MessageModel, resolved later
        self.map_entry = None  # MessageModel of the map entry when this is a map

    @property
    def kind(self):
        t = self.proto.type
        if self.map_entry is not None:
            return "map"
        if t in SCALARS:
            return "bool" if t == F.TYPE_BOOL else "scalar"
        return {F.TYPE_STRING: "string", F.TYPE_BYTES: "bytes", F.TYPE_ENUM: "enum",
                F.TYPE_MESSAGE: "message"}.get(t, "unsupported")

    @property
    def swift_value(self):
        """(Swift type, member) when this message field is spelled as a Swift type (SWIFT_VALUE_TYPES)."""
        if self.kind != "message":
            return None
        return SWIFT_VALUE_TYPES.get(self.type_ref.full_name)

    @property
    def unset_value(self):
        """The Swift value of an unset singular field spelled as a Swift type without an Optional, else None."""
        return self.swift_value[2] if self.swift_value and not self.repeated and not self.oneof else None

    def element_type(self):
        """The Swift type of one value (ignoring repetition and presence)."""
        kind = self.kind
        if self.swift_value:
            return self.swift_value[0]
        if kind in ("scalar", "bool"):
            return SCALARS[self.proto.type][0]
        return {"string": "String", "bytes": "[UInt8]"}.get(kind) or self.type_ref.swift_name

    def swift_type(self):
        if self.kind == "map":
            key, value = self.map_entry.fields
            return f"[{key.element_type()}: {value.element_type()}]"
        if self.repeated:
            return f"[{self.element_type()}]"
        if self.kind == "message":
            return self.element_type() + ("" if self.unset_value else "?")
        return self.element_type()

    def swift_default(self):
        kind = self.kind
        if kind == "map":
            return "[:]"
        if self.repeated:
            return "[]"
        if kind in ("scalar", "bool"):
            return SCALARS[self.proto.type][1]
        return {"string": '""', "bytes": "[]", "enum": ".init()", "message": self.unset_value or "nil"}[kind]


class OneofModel:
    def __init__(self, proto, message, comment):
        self.doc = doc_lines(comment, f"The `{proto.name}` oneof: at most one of its fields is set.")
        self.proto_name = proto.name
        self.swift_name = naming.swift_member(naming.lower_camel(proto.name))
        self.enum_name = "OneOf_" + naming.upper_camel(proto.name)
        self.c_case = naming.c_field_name(proto.name) + "_case"
        self.fields = []
        self.message = message


class MessageModel:
    def __init__(self, proto, full_name, swift_name, file, path):
        self.proto, self.full_name, self.swift_name, self.file, self.path = proto, full_name, swift_name, file, path
        self.doc = doc_lines(file.comment(path), f"`{full_name}`")
        self.decl_name = swift_name.split(".")[-1]
        self.c_type = naming.c_type_name(full_name)
        self.c_lower = naming.c_lower_name(full_name)
        self.is_map_entry = proto.options.map_entry
        self.fields, self.oneofs, self.all_fields = [], [], []
        self.nested_messages, self.nested_enums = [], []

    @property
    def descriptor_accessor(self):
        return f"CKindredProto_descriptor_{self.c_lower}"


class ServiceModel:
    def __init__(self, proto, package, comment, method_comments):
        self.proto, self.name = proto, proto.name
        self.full_name = f"{package}.{proto.name}" if package else proto.name
        self.comment = comment
        self.methods = list(proto.method)  # MethodDescriptorProto: name, input_type, output_type, *_streaming
        self.method_comments = method_comments  # leading comment of each method, by position


class FileModel:
    def __init__(self, proto):
        self.proto, self.name, self.package = proto, proto.name, proto.package
        self.stem = naming.flat_file_stem(proto.name)
        self.messages, self.enums = [], []   # every message (not map entries) and enum, nested ones included
        self.top_messages, self.top_enums = [], []
        self._comments = {tuple(loc.path): loc.leading_comments for loc in proto.source_code_info.location}
        self.services = [
            ServiceModel(s, proto.package, self.comment((6, i)), [self.comment((6, i, 2, j)) for j in range(len(s.method))])
            for i, s in enumerate(proto.service)
        ]

    def comment(self, path):
        """The leading comment at a source_code_info path, e.g. (4, 0, 2, 1) for message 0's field 1."""
        return self._comments.get(tuple(path), "")

    def symbols(self):
        """Fully-qualified names this file defines, as server reflection reports them."""
        names = [m.full_name for m in self.messages] + [e.full_name for e in self.enums]
        for s in self.services:
            names.append(s.full_name)
            names.extend(f"{s.full_name}.{m.name}" for m in s.methods)
        return names
