"""Which of a service's refusals each RPC can reach: from its handler (`func sendMessage(_ request:
Kindred_Social_V1_SendMessageRequest, ...)`), every declaration of the service it names, by name, and so on; a
refusal counts when a declaration reached holds it (`static let userNotFound = refusal(...)`, or a function whose
body makes it).

Names are matched without types (`Type.name` and `Type(...)` narrow to that type): a call of a name several
types declare reaches them all, so the list may hold a refusal a path can never take, but it leaves none out
that the handler's own code can make. The reference says so.
"""

import re

from . import naming, swift_source as swift
from .model import GeneratorError

TYPE_DECL = re.compile(r"^[ \t]*(?:(?:public|private|fileprivate|internal|final|indirect)\s+)*"
                       r"(?:extension|struct|enum|class|actor)\s+(\w+)[^{\n]*\{", re.M)
MEMBER_DECL = re.compile(r"\bfunc\s+(\w+)|\binit\??(?=\s*[(<])|\b(?:let|var)\s+(\w+)\s*(?::[^=\n{]+)?(?==|\{)")
# `Type.name`, `name(` or `name`, but not a label (`token:`, which names a parameter, not a declaration).
IDENTIFIER = re.compile(r"(?:\b([A-Z]\w*)\s*\.\s*)?\b([A-Za-z_]\w*)\b(?!:)(\s*\()?")
KEYWORDS = {"self", "Self", "try", "await", "return", "throw", "let", "var", "if", "guard", "else", "in", "for",
            "switch", "case", "default", "do", "catch", "true", "false", "nil", "async", "throws", "where", "as",
            "is", "some", "any", "func", "static", "init", "super", "while", "break", "continue", "defer"}


class Decl:
    def __init__(self, source, owner, name, start, body_start, end):
        self.source, self.owner, self.name = source, owner, name
        self.start, self.body_start, self.end = start, body_start, end

    @property
    def body(self):
        return self.source.text[self.body_start:self.end]

    @property
    def signature(self):
        return self.source.text[self.start:self.body_start]


class Index:
    """The declarations of a set of Swift sources: functions, initializers and properties, with their bodies."""

    def __init__(self, sources):
        self.decls = []
        for source in sources:
            self.decls += declarations(source)
        self.by_name = {}
        for d in self.decls:
            self.by_name.setdefault(d.name, []).append(d)
        # The types that properties and parameters of each name declare (`let messages: Messages`, `_ draft:
        # MessageDraft`): what `messages.send(` may call.
        typed = {}
        for source in sources:
            for m in re.finditer(r"\b(\w+)\s*:\s*(?:some\s+|any\s+)?([A-Z]\w*)\b", source.code):
                typed.setdefault(m.group(1), set()).add(m.group(2))
        self.value_types = typed

    def holding(self, source, pos):
        """The innermost declaration whose range holds `pos` of `source`, or None."""
        best = None
        for d in self.decls:
            if d.source is source and d.start <= pos < d.end and (best is None or d.start >= best.start):
                best = d
        return best

    def handler(self, method, request_swift_name):
        member = naming.swift_member(naming.lower_camel(method.name))
        found = [d for d in self.by_name.get(member, [])
                 if re.search(rf"\b{request_swift_name}\b", d.signature) and "ServerContext" in d.signature]
        if len(found) != 1:
            raise GeneratorError(f"{method.name}: expected one handler `func {member}(` taking "
                                 f"{request_swift_name}, found {len(found)}")
        return found[0]

    def reach(self, start):
        """Every declaration `start` reaches through the names its body uses."""
        seen, queue = {id(start)}, [start]
        reached = [start]
        while queue:
            decl = queue.pop()
            for target in self.named_in(decl):
                if id(target) not in seen:
                    seen.add(id(target))
                    reached.append(target)
                    queue.append(target)
        return reached

    def named_in(self, decl):
        # The signature too: a default argument (`missing: RPCError = SocialError.eventNotFound`) is a use.
        text = decl.source.code[decl.start:decl.end]
        for m in IDENTIFIER.finditer(text):
            owner, name, call = m.group(1), m.group(2), m.group(3)
            if name in KEYWORDS:
                continue
            receiver = re.search(r"(\w*)\s*\.\s*$", text[:m.start(2)]) if owner is None else None
            if receiver and receiver.group(1) != "self" and not call:
                continue  # `request.token`: a property of some value, not a declaration of this type
            if name[0].isupper() and call:
                yield from (d for d in self.by_name.get("init", []) if d.owner == name)
                continue
            if owner == "Self" or receiver and receiver.group(1) == "self":
                owner = decl.owner
            candidates = self.by_name.get(name, [])
            if owner is None and not receiver:
                # Unqualified, in a type that declares the name: Swift picks the type's own.
                own = [d for d in candidates if d.owner == decl.owner]
                candidates = own or (candidates if call else [])
            elif owner is None and receiver:
                # `value.name(`: the value's declared type's, else the only type that declares the name; a
                # name many types declare on a value of unknown type (`rows.first`, `set.insert(`) reaches none.
                known = self.value_types.get(receiver.group(1), set())
                typed = [d for d in candidates if d.owner in known]
                if typed or len({d.owner for d in candidates}) > 1:
                    candidates = typed
            for d in candidates:
                # A qualified name (`SocialError.userNotFound`) reaches its type's; a call on some value
                # (`messages.send(`) every declaration of its name.
                if owner is None or d.owner == owner:
                    yield d


def declarations(source):
    text = source.text
    types = []
    for m in TYPE_DECL.finditer(text):
        types.append((m.start(), swift.skip_balanced(text, m.end() - 1), m.group(1)))
    decls = []
    for m in MEMBER_DECL.finditer(text):
        name = m.group(1) or m.group(2) or "init"
        owner = None
        for start, end, type_name in types:
            if start <= m.start() < end:
                owner = type_name  # the innermost: later (nested) declarations come last
        span = body_of(text, m)
        if span:
            decls.append(Decl(source, owner, name, m.start(), span[0], span[1]))
    # A local `let` inside a function body is part of that function, not a declaration of its own.
    functions = [d for d in decls if d.source.text[d.start:d.start + 4] in ("func", "init")]
    return [d for d in decls if d in functions or not any(f.body_start < d.start < f.end for f in functions)]


def body_of(text, match):
    """(body start, end) of the declaration at `match`: a function's `{...}`, a property's `= expr` or `{...}`."""
    i = match.end()
    if text.startswith("func", match.start()) or text.startswith("init", match.start()):
        paren = text.find("(", i)
        if paren < 0:
            return None
        after = swift.skip_balanced(text, paren)
        brace = text.find("{", after)
        head = text[after:brace] if brace >= 0 else ""
        if brace < 0 or re.search(r"\n\s*(?:func|var|let|case|static|\})\b", head):
            return None  # a requirement without a body
        return brace, swift.skip_balanced(text, brace)
    rest = text[i:]
    if rest.lstrip().startswith("{"):
        brace = i + len(rest) - len(rest.lstrip())
        return brace, swift.skip_balanced(text, brace)
    if rest.lstrip().startswith("="):
        start = i + len(rest) - len(rest.lstrip()) + 1
        end = text.find("\n", start)
        # An expression runs on while its brackets are open: take the first balanced group on its line.
        opening = re.search(r"[(\[{]", text[start:end if end >= 0 else len(text)])
        if opening:
            close = swift.skip_balanced(text, start + opening.start())
            end = max(end, close)
        return start, end if end >= 0 else len(text)
    return None
