"""Names: swift-protobuf's Swift naming and protoc-c's C naming (protoc-c 1.4.1 c_helpers.cc rules)."""

SWIFT_KEYWORDS = {
    "associatedtype", "class", "deinit", "enum", "extension", "fileprivate", "func", "import", "inout",
    "internal", "let", "open", "operator", "private", "precedencegroup", "protocol", "public", "rethrows",
    "static", "struct", "subscript", "typealias", "var", "break", "case", "catch", "continue", "default",
    "defer", "do", "else", "fallthrough", "for", "guard", "if", "in", "repeat", "return", "throw", "switch",
    "where", "while", "as", "Any", "false", "is", "nil", "super", "throws", "true", "try", "await",
}
# Names a backtick cannot rescue, or that would shadow a generated member: swift-protobuf appends "_".
SWIFT_RESERVED_MEMBERS = {"self", "Type", "Protocol", "init", "protoMessageName", "serializedBytes", "unrecognized"}
# swift-protobuf spells these words in capitals inside camel-case names.
SWIFT_ACRONYMS = {"url": "URL", "http": "HTTP", "https": "HTTPS", "id": "ID"}

C_KEYWORDS = {
    "and", "and_eq", "asm", "auto", "bitand", "bitor", "bool", "break", "case", "catch", "char", "class",
    "compl", "const", "const_cast", "continue", "default", "delete", "do", "double", "dynamic_cast", "else",
    "enum", "explicit", "extern", "false", "float", "for", "friend", "goto", "if", "inline", "int", "long",
    "mutable", "namespace", "new", "not", "not_eq", "operator", "or", "or_eq", "private", "protected",
    "public", "register", "reinterpret_cast", "return", "short", "signed", "sizeof", "static",
    "static_cast", "struct", "switch", "template", "this", "throw", "true", "try", "typedef", "typeid",
    "typename", "union", "unsigned", "using", "virtual", "void", "volatile", "wchar_t", "while", "xor",
    "xor_eq",
}


def _words(snake):
    return [w for w in snake.split("_") if w]


def upper_camel(name):
    """foo_bar -> FooBar; keeps the case of letters after the first of each word (v1alpha -> V1alpha)."""
    return "".join(w[0].upper() + w[1:] for w in _words(name))


def lower_camel(snake):
    """page_token -> pageToken, type_url -> typeURL (swift-protobuf's acronyms), NOT_SERVING -> notServing."""
    words = _words(snake)
    if not words:
        return "_"
    if snake.isupper() or snake.upper() == snake:
        words = [w.lower() for w in words]
    out = words[0][0].lower() + words[0][1:]
    for w in words[1:]:
        out += SWIFT_ACRONYMS.get(w.lower(), w[0].upper() + w[1:])
    return out


def swift_member(name):
    """A Swift declaration name for a property, parameter or enum case."""
    if name in SWIFT_RESERVED_MEMBERS:
        return name + "_"
    if name in SWIFT_KEYWORDS:
        return "`" + name + "`"
    return name


def swift_package_prefix(package):
    """grpc.health.v1 -> Grpc_Health_V1_ (swift-protobuf's prefix for top-level types)."""
    if not package:
        return ""
    return "_".join(upper_camel(p) for p in package.split(".")) + "_"


def c_camel(piece):
    """protoc-c ToCamel: drops underscores, capitalises the letter after each."""
    out, upper = "", True
    for ch in piece:
        if ch == "_":
            upper = True
        elif upper:
            out, upper = out + ch.upper(), False
        else:
            out += ch
    return out


def c_camel_to_lower(piece):
    """protoc-c CamelToLower: HealthCheckRequest -> health_check_request."""
    out, was_upper = "", True
    for ch in piece:
        if ch.isupper():
            out += ("" if was_upper else "_") + ch.lower()
            was_upper = True
        else:
            out += ch
            was_upper = False
    return out


def c_type_name(full_name):
    """grpc.health.v1.HealthCheckRequest -> Grpc__Health__V1__HealthCheckRequest."""
    return "__".join(c_camel(p) for p in full_name.split(".") if p)


def c_lower_name(full_name):
    """grpc.health.v1.HealthCheckRequest -> grpc__health__v1__health_check_request."""
    return "__".join(c_camel_to_lower(p) for p in full_name.split(".") if p)


def c_field_name(proto_name):
    """protoc-c FieldName: lower case, '_' appended to C/C++ keywords."""
    name = proto_name.lower()
    return name + "_" if name in C_KEYWORDS else name


def swift_c_member(c_name):
    """A protoc-c struct member as Swift code spells it after a dot (`m.pointee.`self``)."""
    return f"`{c_name}`" if c_name in ("self", "Type", "Protocol", "init") else c_name


def enum_case_name(enum_name, value_name):
    """swift-protobuf: strip the enum's UPPER_SNAKE prefix when what remains is an identifier, then lowerCamel."""
    prefix = c_camel_to_lower(enum_name).upper() + "_"
    stripped = value_name
    if value_name.startswith(prefix) and len(value_name) > len(prefix) and not value_name[len(prefix)].isdigit():
        stripped = value_name[len(prefix):]
    return swift_member(lower_camel(stripped))


def flat_file_stem(proto_path):
    """grpc/health/v1/health.proto -> grpc_health_v1_health (Swift sources need unique base names)."""
    return proto_path[: -len(".proto")].replace("/", "_").replace("-", "_").replace(".", "_")
