"""Every refusal a service can send, read from the Swift sources: its gRPC status, its `ErrorInfo.reason` and the
sentence the caller sees.

A refusal is written one way in the services, `refusal(.code, "REASON", "Sentence.")` (a service's own
`XError.refusal` or `RPCError.refusal`), or, for the few answers without a reason, `RPCError(.code, "Sentence.")`.
A function that forwards its parameters to one (`invalidPin(_ reason:, field:, _ message:)`) is followed to its
callers, whose literals are the refusals. Anything else at a `refusal(` or `RPCError(` is an error: the scan fails
rather than leave a refusal out of the reference. The shared layers (authentication, admission, shutdown, the
database's mapping, field violations) are read from the files SHARED_SOURCES names, in the same way.
"""

import os
import re

from . import swift_source as swift
from .model import GeneratorError


class Refusal:
    def __init__(self, status, reason, message, path, scope=None, note=""):
        self.status, self.reason, self.message, self.path = status, reason, message, path
        self.scope = scope  # the one RPC name it applies to, or None: any
        self.note = note
        self.at = None  # (Source, offset) of the call that makes it

    @property
    def key(self):
        return (self.reason or "~", self.status, self.message)


# Shared sources whose answers reach every service's callers, with the RPC each is limited to (None: any).
SHARED_SOURCES = {
    "Shared/KindredRPC/CallAuthentication.swift": None,
    "Shared/KindredRPC/ServerContext+Caller.swift": None,
    "Shared/KindredRPC/ServerCall+PeerCertificate.swift": None,
    "Shared/KindredRPC/ServerCall+Authentication.swift": None,
    "Shared/KindredRPC/ServerCall+Admission.swift": None,
    "Shared/KindredRPC/RPCError+ServerShuttingDown.swift": None,
    "Shared/KindredRPC/RPCError+Cause.swift": None,
    "Shared/KindredRuntime/PostgresError+RPCError.swift": None,
    "Shared/KindredHandlers/FieldViolations.swift": None,
    "Shared/KindredHandlers/EventFeed+WatchEvents.swift": "WatchEvents",
}
TOKEN_ERRORS = "Shared/KindredAuth/Caller.swift"

# The shared answers whose sentence is built from the request, not written in one literal: (file, status) ->
# the sentence as the reference describes it.
COMPOSED = {
    ("Shared/KindredHandlers/FieldViolations.swift", "INVALID_ARGUMENT"):
        ("‹one sentence per bad field, e.g. “Page token is required.”›",
         "`BadRequest.field_violations` names each bad field"),
}
# A refused access token answers with its TokenVerificationError's reason and message (expanded below).
TOKEN_VERDICT = ("Shared/KindredRPC/CallAuthentication.swift", "reason.reason", "reason.message")


def status_name(member):
    """`.notFound` -> NOT_FOUND."""
    return re.sub(r"(?<!^)([A-Z])", r"_\1", member).upper()


def swift_files(root, directory):
    found = []
    for base, dirs, files in os.walk(os.path.join(root, directory)):
        dirs[:] = sorted(d for d in dirs if d != "Generated")
        found += [os.path.join(base, f) for f in sorted(files) if f.endswith(".swift")]
    return sorted(found)


class Source:
    def __init__(self, root, path):
        self.path = os.path.relpath(path, root)
        with open(path, encoding="utf-8") as f:
            self.text = swift.strip_comments(f.read())
        self.code = swift.blank_strings(self.text)  # the same offsets, strings blanked

    def where(self, pos):
        return f"{self.path}:{swift.line_of(self.text, pos)}"


def constants(sources):
    """`static let name = literal` by (enclosing type, name), for interpolations like `\\(Type.name)`."""
    found = {}
    for source in sources:
        for m in re.finditer(r"\bstatic\s+let\s+(\w+)\s*(?::\s*\w+\s*)?=\s*(\"[^\"\n]*\"|[0-9][0-9_]*)(?=\s*(?:$|\}|;))",
                             source.text, re.M):
            owner = None
            for d in re.finditer(r"\b(?:enum|struct|class|actor|extension)\s+(\w+)", source.text[:m.start()]):
                owner = d.group(1)
            value = m.group(2).strip('"').replace("_", "") if m.group(2)[0] != '"' else m.group(2)[1:-1]
            found[(owner, m.group(1))] = value
    return found


class Scanner:
    def __init__(self, root, sources, known):
        self.root, self.sources, self.known = root, sources, known
        self.found = []

    def add(self, refusal):
        refusal.at = self.current
        self.found.append(refusal)

    def resolve(self, expr):
        parts = expr.split(".")
        if len(parts) == 2 and (parts[0], parts[1]) in self.known:
            return self.known[(parts[0], parts[1])]
        return f"‹{expr}›"

    def text(self, argument, source, pos):
        if argument.literal is None:
            raise GeneratorError(f"{source.where(pos)}: expected a string literal, found `{argument.source}`")
        return argument.literal.render(self.resolve)

    def scan(self, scope=None):
        forwarders = []
        for source in self.sources:
            for m in re.finditer(r"(?<!func )(?<![\w.])((?:\w+\.)+|\.)?(refusal|RPCError|authentication)\(",
                                 source.text):
                if m.group(2) == "authentication" and m.group(1) not in (".", "RPCError."):
                    continue  # another function of that name; the authentication layer's is `.authentication(`
                args, _ = swift.arguments(source.text, m.end() - 1)
                self.current = (source, m.start())
                forward = self.read_call(m.group(2), args, source, m.start(), scope)
                if forward:
                    forwarders.append(forward)
        for name, positions, source, pos in forwarders:
            self.follow(name, positions, source, pos, scope)
        return self.found

    def read_call(self, kind, args, source, pos, scope):
        """Records the refusal the call makes; returns a forwarder to follow when it passes parameters on."""
        if not args or args[0].label is not None or len(args) == 1 and args[0].member is None:
            # Another function of the same name (`refusal(of:for:on:)`), or a case that carries an error made
            # elsewhere (`HeadersVerdict.refusal(error)`), where that error is read.
            return None
        roles = ("status", "message") if kind == "RPCError" else ("status", "reason", "message")
        if len(args) < len(roles):
            raise GeneratorError(f"{source.where(pos)}: {kind}(...) has too few arguments to read")
        role_args = dict(zip(roles, args))
        status = args[0].member and status_name(args[0].member)
        special = self.special(kind, role_args, status, source, scope)
        if special:
            return None
        enclosing = swift.enclosing_function(source.text, pos)
        params = enclosing[1] if enclosing else []
        passed = {role: a.source for role, a in role_args.items() if a.literal is None and a.source in params}
        if passed:
            if enclosing[0] in ("refusal", "authentication"):
                return None  # a service's own `refusal` (or `authentication`), forwarding to the shared one
            positions = {role: (params.index(passed[role]) if role in passed else a)
                         for role, a in role_args.items()}
            return enclosing[0], positions, source, pos
        if not status:
            raise GeneratorError(f"{source.where(pos)}: {kind}(...): the status `{args[0].source}` is not a literal")
        message = self.message_text(role_args["message"], source, pos)
        if kind == "RPCError":
            rest = " ".join(a.source for a in args[2:])
            info = re.search(r"\.errorInfo\(\s*reason:\s*\"(\w+)\"", rest)
            reason = info and info.group(1)
        else:
            reason = self.reason_text(role_args["reason"], source, pos)
        self.add(Refusal(status, reason, message, source.path, scope))
        return None

    def special(self, kind, role_args, status, source, scope):
        """The shared answers whose sentence or reason is not one literal (COMPOSED, TOKEN_VERDICT)."""
        if (source.path, status) in COMPOSED and role_args["message"].literal is None:
            text, note = COMPOSED[(source.path, status)]
            self.add(Refusal(status, None, text, source.path, scope, note))
            return True
        if kind != "RPCError" and (source.path, role_args["reason"].source, role_args["message"].source) == TOKEN_VERDICT:
            for r in token_refusals(self.root, status):
                self.add(r)
            return True
        return False

    def reason_text(self, argument, source, pos):
        if argument.literal is None and argument.source in self.known_names():
            return self.resolve(argument.source)
        token_case = re.fullmatch(r"TokenVerificationError\.(\w+)\.reason", argument.source)
        if token_case:
            return token_reasons(self.root)[token_case.group(1)]
        reason = self.text(argument, source, pos)
        if not re.fullmatch(r"[A-Z][A-Z0-9_]*", reason):
            raise GeneratorError(f"{source.where(pos)}: `{reason}` is not a machine-readable reason")
        return reason

    def known_names(self):
        return {f"{owner}.{name}" for owner, name in self.known}

    def message_text(self, message, source, pos):
        # A constant of the same file (`RPCError(.internal, internalMessage, ...)`).
        if message.literal is None and re.search(rf"\bstatic\s+let\s+{re.escape(message.source)}\s*=", source.text):
            for (owner, name), value in self.known.items():
                if name == message.source:
                    return value
        return self.text(message, source, pos)

    def follow(self, name, positions, declared_in, declared_at, scope):
        calls = 0
        for source in self.sources:
            for m in re.finditer(rf"(?<!func )(?<![\w])(?:\w+\.)?{name}\(", source.text):
                args, _ = swift.arguments(source.text, m.end() - 1)
                self.current = (source, m.start())
                calls += 1
                value = {}
                for role, where in positions.items():
                    if isinstance(where, int):
                        if where >= len(args):
                            raise GeneratorError(f"{source.where(m.start())}: {name}(...) lacks its {role}")
                        value[role] = args[where]
                    else:
                        value[role] = where
                status = value["status"].member
                if not status:
                    raise GeneratorError(f"{source.where(m.start())}: {name}(...): the status is not a literal")
                reason = self.text(value["reason"], source, m.start()) if "reason" in value else None
                self.add(Refusal(status_name(status), reason,
                                          self.text(value["message"], source, m.start()), source.path, scope))
        if not calls:
            raise GeneratorError(f"{declared_in.where(declared_at)}: {name} forwards a refusal nobody calls")


def token_enum(root):
    text = Source(root, os.path.join(root, TOKEN_ERRORS)).text
    enum = re.search(r"enum TokenVerificationError\b.*?\n}", text, re.S)
    if not enum:
        raise GeneratorError(f"{TOKEN_ERRORS}: no enum TokenVerificationError")
    return enum.group(0)


def token_reasons(root):
    """TokenVerificationError's cases and their reasons (raw values)."""
    return dict(re.findall(r"case (\w+) = \"(\w+)\"", token_enum(root)))


def token_refusals(root, status):
    """A refused access token's answers: each TokenVerificationError case's reason, with its message."""
    reasons = token_reasons(root)
    message = re.search(r"var message: String \{(.*?)\n    \}", token_enum(root), re.S)
    if not reasons or not message:
        raise GeneratorError(f"{TOKEN_ERRORS}: cannot read TokenVerificationError's reasons and messages")
    found, covered = [], set()
    for cases, literal in re.findall(r"case ((?:\.\w+\s*,?\s*)+):\s*(\"[^\"\n]*\")", message.group(1)):
        text_value = swift.read_string(literal, 0)[0].render(lambda e: f"‹{e}›")
        for case in re.findall(r"\.(\w+)", cases):
            covered.add(case)
            found.append(Refusal(status, reasons[case], text_value, TOKEN_ERRORS))
    if covered != set(reasons):
        raise GeneratorError(f"{TOKEN_ERRORS}: no message read for {sorted(set(reasons) - covered)}")
    return found


def service_sources(root, name):
    return [Source(root, p) for p in swift_files(root, f"Services/{name}")]


def scan_service(root, name, sources=None, every=False):
    """The refusals written in Services/<name>: each once, or (`every`) each call that makes one."""
    sources = sources or service_sources(root, name)
    shared = [Source(root, p) for p in swift_files(root, "Shared")]
    found = Scanner(root, sources, constants(sources + shared)).scan()
    return found if every else unique(found)


def scan_shared(root):
    """The refusals of the shared layers every service answers with, each once."""
    found = []
    everything = [Source(root, p) for p in swift_files(root, "Shared")]
    known = constants(everything)
    for path, scope in SHARED_SOURCES.items():
        if not os.path.exists(os.path.join(root, path)):
            raise GeneratorError(f"{path}: named in refusals.SHARED_SOURCES but missing")
        found += Scanner(root, [Source(root, os.path.join(root, path))], known).scan(scope)
    return unique(found)


def unique(refusals):
    seen, kept = set(), []
    for r in refusals:
        if r.key + (r.scope,) not in seen:
            seen.add(r.key + (r.scope,))
            kept.append(r)
    return sorted(kept, key=lambda r: r.key)
