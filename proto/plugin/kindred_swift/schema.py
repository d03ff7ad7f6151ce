"""Builds the model from a CodeGeneratorRequest and refuses what the generated code cannot carry."""

from google.protobuf.descriptor_pb2 import FieldDescriptorProto as F

from . import naming
from .model import EnumModel, FieldModel, FileModel, GeneratorError, MessageModel, OneofModel


class Schema:
    """Every file of the request (dependencies first, as protoc orders them) and every named type."""

    def __init__(self, request):
        self.parameter = request.parameter
        self.files = [FileModel(p) for p in request.proto_file]
        self.files_to_generate = set(request.file_to_generate)
        self.types = {}
        for file in self.files:
            self._check_file(file)
            prefix = naming.swift_package_prefix(file.package)
            for i, proto in enumerate(file.proto.enum_type):
                file.top_enums.append(self._add_enum(file, proto, file.package, prefix + proto.name, (5, i)))
            for i, proto in enumerate(file.proto.message_type):
                file.top_messages.append(self._add_message(file, proto, file.package, prefix + proto.name, (4, i)))
        for message in self.all_messages():
            self._resolve_fields(message)
        self._refuse_value_cycles()

    def generated_files(self):
        return [f for f in self.files if f.name in self.files_to_generate]

    def all_messages(self):
        return [t for t in self.types.values() if isinstance(t, MessageModel)]

    def _check_file(self, file):
        if file.proto.syntax != "proto3":
            raise GeneratorError(f"{file.name}: only proto3 is supported (syntax is '{file.proto.syntax or 'proto2'}')")
        if file.proto.extension:
            raise GeneratorError(f"{file.name}: extensions are not supported")

    def _add_enum(self, file, proto, scope, swift_name, path):
        full_name = f"{scope}.{proto.name}" if scope else proto.name
        enum = EnumModel(proto, full_name, swift_name, file, path)
        self.types["." + full_name] = enum
        file.enums.append(enum)
        return enum

    def _add_message(self, file, proto, scope, swift_name, path):
        full_name = f"{scope}.{proto.name}" if scope else proto.name
        message = MessageModel(proto, full_name, swift_name, file, path)
        self.types["." + full_name] = message
        if not message.is_map_entry:
            file.messages.append(message)
        for i, nested in enumerate(proto.enum_type):
            message.nested_enums.append(
                self._add_enum(file, nested, full_name, f"{swift_name}.{nested.name}", path + (4, i)))
        for i, nested in enumerate(proto.nested_type):
            child = self._add_message(file, nested, full_name, f"{swift_name}.{nested.name}", path + (3, i))
            if not child.is_map_entry:
                message.nested_messages.append(child)
        return message

    def _resolve_fields(self, message):
        proto = message.proto
        if proto.extension or proto.extension_range:
            raise GeneratorError(f"{message.full_name}: extensions are not supported")
        comment = message.file.comment
        message.oneofs = [OneofModel(o, message, comment(message.path + (8, i))) for i, o in enumerate(proto.oneof_decl)]
        for i, field_proto in enumerate(proto.field):
            field = FieldModel(field_proto, message, comment(message.path + (2, i)))
            where = f"{message.full_name}.{field_proto.name}"
            if field_proto.proto3_optional:
                raise GeneratorError(f"{where}: proto3 'optional' is not supported by protoc-c; use a oneof or a wrapper")
            if field_proto.type == F.TYPE_GROUP:
                raise GeneratorError(f"{where}: groups are not supported")
            if field_proto.type_name:
                field.type_ref = self.types[field_proto.type_name]
                if isinstance(field.type_ref, MessageModel) and field.type_ref.is_map_entry:
                    field.map_entry = field.type_ref
                    self._check_map(where, field.map_entry)
            message.all_fields.append(field)
            if field_proto.HasField("oneof_index"):
                field.oneof = message.oneofs[field_proto.oneof_index]
                field.oneof.fields.append(field)
            else:
                message.fields.append(field)

    def _check_map(self, where, entry):
        key = entry.proto.field[0]
        if key.type in (F.TYPE_BOOL, F.TYPE_FLOAT, F.TYPE_DOUBLE, F.TYPE_BYTES):
            raise GeneratorError(f"{where}: map keys must be strings or integers")

    def _refuse_value_cycles(self):
        """A struct cannot contain itself: refuse a message that reaches itself through singular fields."""
        def edges(message):
            for field in message.all_fields:
                if field.kind == "message" and not field.repeated:
                    yield field.type_ref

        done = set()

        def visit(message, path):
            if message.full_name in path:
                cycle = " -> ".join(path[path.index(message.full_name):] + [message.full_name])
                raise GeneratorError(f"recursive message types are not supported: {cycle}")
            if message.full_name in done:
                return
            for child in edges(message):
                visit(child, path + [message.full_name])
            done.add(message.full_name)

        for message in self.all_messages():
            visit(message, [])
