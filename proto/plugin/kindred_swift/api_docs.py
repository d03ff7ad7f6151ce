"""Writes Services/<Name>/API.md: one Markdown reference per product service, from the protos (their comments)
and the Swift sources (who may call without a token, and every refusal: refusals.py).

A service's RPCs fall in groups, each opened by a detached comment (a paragraph, then a blank line, before the
group's first RPC) whose first sentence is the group's title. A group without one is an error, as is a product
service without a comment: the reference would have a hole.
"""

import os
import re

from google.protobuf.descriptor_pb2 import FieldDescriptorProto as F

from . import naming, reach, refusals
from .model import GeneratorError, MessageModel

# The product services and the folder of each (Services/<Name>).
SERVICES = {
    "kindred.identity.v1.IdentityService": "Identity",
    "kindred.family.v1.FamilyService": "Family",
    "kindred.social.v1.SocialService": "Social",
    "kindred.gamification.v1.GamificationService": "Gamification",
}

# Shared functions a handler calls whose refusal is the shared layers': a call in the code it reaches -> the reason.
SHARED_CALLS = {r"\bauthenticatedCaller\(\s*as:": "ROLE_NOT_ALLOWED"}

SCALAR_NAMES = {
    F.TYPE_DOUBLE: "double", F.TYPE_FLOAT: "float", F.TYPE_INT64: "int64", F.TYPE_UINT64: "uint64",
    F.TYPE_INT32: "int32", F.TYPE_FIXED64: "fixed64", F.TYPE_FIXED32: "fixed32", F.TYPE_BOOL: "bool",
    F.TYPE_STRING: "string", F.TYPE_BYTES: "bytes", F.TYPE_UINT32: "uint32", F.TYPE_SFIXED32: "sfixed32",
    F.TYPE_SFIXED64: "sfixed64", F.TYPE_SINT32: "sint32", F.TYPE_SINT64: "sint64",
}


def generate(schema, source_root):
    services = {s.full_name: (f, s) for f in schema.files for s in f.services}
    shared = refusals.scan_shared(source_root)
    outputs = []
    for full_name, folder in SERVICES.items():
        if full_name not in services:
            raise GeneratorError(f"api_docs.SERVICES names {full_name}, which no proto declares")
        file, service = services[full_name]
        page = Page(schema, file, service, folder, source_root, shared)
        outputs.append((f"Services/{folder}/API.md", page.text()))
    return outputs


def anchor(*parts):
    return "-".join(re.sub(r"[^a-z0-9]+", "-", p.lower()).strip("-") for p in parts)


def paragraph(comment):
    """A proto comment as Markdown: its lines joined, its lists and paragraphs kept."""
    lines = [line[1:] if line.startswith(" ") else line for line in comment.strip("\n").split("\n")]
    out = []
    for line in lines:
        stripped = line.strip()
        if not stripped:
            out.append("")
        elif stripped.startswith("- ") or not out or not out[-1]:
            out.append(stripped)
        elif line.startswith("  ") and out[-1].startswith("- "):
            out[-1] += " " + stripped
        else:
            out[-1] += " " + stripped
    return "\n".join(out).strip()


def one_line(comment):
    """A comment in a table cell: one line, pipes escaped."""
    return " ".join(paragraph(comment).split()).replace("|", "\\|")


def title_and_rest(comment):
    """`Title. The rest.` -> ("Title", "The rest."), the title without parentheses."""
    text = paragraph(comment)
    match = re.match(r"(.+?)(?:\.(?:\s|$)|$)", text, re.S)
    title = re.sub(r"\s*\([^)]*\)", "", match.group(1)).strip()
    return title, text[match.end():].strip()


class Group:
    def __init__(self, title, intro):
        self.title, self.intro, self.methods = title, intro, []


class Page:
    def __init__(self, schema, file, service, folder, source_root, shared):
        self.schema, self.file, self.service, self.folder = schema, file, service, folder
        sources = refusals.service_sources(source_root, folder)
        every = refusals.scan_service(source_root, folder, sources=sources, every=True)
        self.own = refusals.unique(every)
        self.code = reach.Index(sources)
        self.held = {}  # id of a declaration -> the refusals made in it
        for r in every:
            holder = self.code.holding(*r.at)
            if holder is None:
                raise GeneratorError(f"{r.at[0].where(r.at[1])}: a refusal outside any declaration")
            self.held.setdefault(id(holder), []).append(r)
        self.shared = shared
        self.public = method_set(source_root, folder, "publicMethods")
        self.child_mode = method_set(source_root, folder, "childModeMethods")
        self.groups = self.group_methods()
        self.messages = self.reachable_types()
        self.lines = []
        self.anchored = set()  # the reasons whose first row holds their anchor

    def group_methods(self):
        locations = {tuple(loc.path): loc for loc in self.file.proto.source_code_info.location}
        index = [s.name for s in self.file.proto.service].index(self.service.name)
        groups = []
        for j, method in enumerate(self.service.methods):
            loc = locations[(6, index, 2, j)]
            # protoc files a paragraph right after `service X {` as the service's trailing comment.
            heading = (loc.leading_detached_comments[-1:] or
                       ([locations[(6, index)].trailing_comments] if j == 0 else []))
            if heading and heading[0].strip():
                groups.append(Group(*title_and_rest(heading[0])))
            elif not groups:
                raise GeneratorError(f"{self.service.full_name}.{method.name}: the first RPC needs a group heading "
                                     "(a comment paragraph, then a blank line, above its own comment)")
            elif self.starts_after_blank(loc, locations[(6, index, 2, j - 1)]):
                raise GeneratorError(f"{self.service.full_name}.{method.name} starts a group (a blank line above "
                                     "it) without a heading comment")
            groups[-1].methods.append((method, self.service.method_comments[j]))
        return groups

    @staticmethod
    def starts_after_blank(loc, previous):
        first_line = loc.span[0] - loc.leading_comments.count("\n")
        previous_end = previous.span[2] if len(previous.span) == 4 else previous.span[0]
        return first_line > previous_end + 1

    def reachable_types(self):
        """The messages and enums the RPCs reach, each once, in the order a reader meets them."""
        seen, order = set(), []

        def visit(name):
            model = self.schema.types[name]
            if model.full_name in seen:
                return
            seen.add(model.full_name)
            order.append(model)
            if isinstance(model, MessageModel):
                for field in model.all_fields:
                    for ref in referenced(field):
                        visit("." + ref.full_name)

        for _, methods in [(g, g.methods) for g in self.groups]:
            for method, _ in methods:
                visit(method.input_type)
                visit(method.output_type)
        return order

    def w(self, text=""):
        self.lines.append(text)

    def text(self):
        s = self.service
        self.w(f"# {s.name} API reference")
        self.w()
        self.w(f"<!-- Generated by proto/generate from {self.file.name} and the refusals in Services/{self.folder} "
               "and Shared/. Do not edit. -->")
        self.w()
        if not s.comment.strip():
            raise GeneratorError(f"{s.full_name}: a product service needs a comment (its summary)")
        self.w(f"`{s.full_name}` · [proto](../../proto/{self.file.name}) · "
               f"{len(s.methods)} RPCs")
        self.w()
        self.w(paragraph(s.comment))
        self.w()
        self.w("Every RPC needs an access token (`authorization: Bearer …`) unless it says *public*; a "
               "`child_readonly` token (child mode) may call only the RPCs that say so. Refusals carry a "
               "`google.rpc.ErrorInfo` whose `reason` is listed under each RPC and, with the sentence the caller "
               f"reads, in [Refusals](#refusals).")
        self.write_contents()
        for group in self.groups:
            self.write_group(group)
        self.write_messages()
        self.write_refusals()
        return "\n".join(self.lines).rstrip("\n") + "\n"

    def write_contents(self):
        self.w()
        self.w("## Contents")
        self.w()
        for group in self.groups:
            links = ", ".join(f"[{m.name}](#{anchor('rpc', m.name)})" for m, _ in group.methods)
            self.w(f"- [{group.title}](#{anchor('group', group.title)}): {links}")
        self.w(f"- [Messages and enums](#messages-and-enums)")
        self.w(f"- [Refusals](#refusals)")

    def write_group(self, group):
        self.w()
        self.w(f'<a id="{anchor("group", group.title)}"></a>')
        self.w()
        self.w(f"## {group.title}")
        if group.intro:
            self.w()
            self.w(group.intro)
        for method, comment in group.methods:
            self.write_method(method, comment, group)

    def write_method(self, method, comment, group):
        self.w()
        self.w(f'<a id="{anchor("rpc", method.name)}"></a>')
        self.w()
        self.w(f"### {method.name}")
        self.w()
        kind = {(False, False): "unary", (False, True): "server-streaming", (True, False): "client-streaming",
                (True, True): "bidirectional-streaming"}[(method.client_streaming, method.server_streaming)]
        member = naming.swift_member(naming.lower_camel(method.name))
        facts = [kind, "public (no token)" if member in self.public else "access token"]
        if method.options.idempotency_level == method.options.NO_SIDE_EFFECTS or member in self.child_mode:
            facts.append("child mode may call it")
        self.w(" · ".join(facts))
        self.w()
        if comment.strip():
            self.w(paragraph(comment))
            self.w()
        request = self.schema.types[method.input_type]
        response = self.schema.types[method.output_type]
        stream = "stream of " if method.server_streaming else ""
        request_stream = "stream of " if method.client_streaming else ""
        self.w(f"- Request: {request_stream}{self.link(request)}")
        self.w(f"- Response: {stream}{self.link(response)}")
        answers = self.method_refusals(method, request, comment + "\n" + group.intro)
        if answers:
            self.w("- Refusals: " + ", ".join(
                f"[`{reason}`](#{anchor('reason', reason)}) ({status})" for reason, status in answers))

    def method_refusals(self, method, request, text):
        """The service's reasons the RPC's handler reaches (reach.py), and those its comment (or its group's)
        names, with their statuses."""
        handler = self.code.handler(method, request.swift_name)
        decls = self.code.reach(handler)
        reached = [r for d in decls for r in self.held.get(id(d), [])]
        for pattern, reason in SHARED_CALLS.items():
            if any(re.search(pattern, d.source.code[d.start:d.end]) for d in decls):
                reached += [r for r in self.shared if r.reason == reason]
        words = set(re.findall(r"\b[A-Z][A-Z0-9_]{2,}\b", text))
        named = [r for r in self.own + [r for r in self.shared if r.scope in (None, method.name)]
                 if r.reason in words]
        found = {}
        for r in reached + named:
            if r.reason:
                statuses = found.setdefault(r.reason, [])
                if r.status not in statuses:
                    statuses.append(r.status)
        return [(reason, " or ".join(statuses)) for reason, statuses in sorted(found.items())]

    def link(self, model):
        same_package = model.file.package == self.file.package
        return f"[`{model.full_name.split('.')[-1] if same_package else model.full_name}`]" \
               f"(#{anchor('type', model.full_name)})"

    def write_messages(self):
        self.w()
        self.w("## Messages and enums")
        self.w()
        self.w("Every message and enum the RPCs above reach, each once.")
        for model in self.messages:
            self.w()
            self.w(f'<a id="{anchor("type", model.full_name)}"></a>')
            self.w()
            self.w(f"### {model.full_name}")
            self.w()
            if model.doc != [f"`{model.full_name}`"]:
                self.w(" ".join(line.strip() for line in model.doc))
                self.w()
            if isinstance(model, MessageModel):
                self.write_fields(model)
            else:
                self.write_values(model)

    def write_fields(self, message):
        if not message.all_fields:
            self.w("No fields.")
            return
        self.w("| Field | Type | Description |")
        self.w("|---|---|---|")
        for field in sorted(message.all_fields, key=lambda f: list(message.proto.field).index(f.proto)):
            text = one_line(field.comment)
            if field.oneof:
                text = f"One of `{field.oneof.proto_name}`. {text}".strip()
            self.w(f"| `{field.proto_name}` | {self.type_of(field)} | {text} |")

    def type_of(self, field):
        if field.map_entry is not None:
            key, value = field.map_entry.fields
            return f"map<{self.type_of(key)}, {self.type_of(value)}>"
        if field.type_ref is not None:
            name = self.link(field.type_ref)
        else:
            name = SCALAR_NAMES[field.proto.type]
        return f"repeated {name}" if field.repeated else name

    def write_values(self, enum):
        self.w("| Value | Number | Description |")
        self.w("|---|---|---|")
        for (_, number), value, doc in zip(enum.values, enum.proto.value, enum.value_docs):
            self.w(f"| `{value.name}` | {number} | {one_line(doc)} |")

    def write_refusals(self):
        domain = self.service.full_name.split(".")[1]
        self.w()
        self.w("## Refusals")
        self.w()
        self.w("Every refusal this service can send: its gRPC status, its machine-readable `ErrorInfo.reason` and "
               "the sentence the caller reads (`grpc-message`). ‹…› marks a part filled in at the time. Read from "
               "the Swift sources by proto/plugin/kindred_swift/refusals.py; a refusal it cannot read fails "
               "proto/generate, and a refusal added without regenerating fails the staleness test.")
        self.w()
        self.w("Under each RPC, *Refusals* lists this service's reasons that its handler's code can reach "
               "(proto/plugin/kindred_swift/reach.py follows, from the handler, every declaration of the service "
               "it names; where several types declare a called name it follows them all, so a list may hold a "
               "reason that no path of that RPC takes) and the reasons its proto comment names. Any RPC can also "
               "get the shared layers' answers (the second table): authentication, overload, shutdown, the "
               "database, and INVALID_ARGUMENT naming each bad field.")
        self.w()
        self.w(f"### The {domain} service's own (`ErrorInfo.domain` `kindred.{domain}`)")
        self.write_table(self.own)
        self.w()
        self.w("### Every service's (the shared layers)")
        self.w()
        self.w("Authentication answers in the `kindred.auth` domain, admission and shutdown in `kindred.rpc`; "
               "an answer without a reason has no `ErrorInfo`.")
        self.write_table([r for r in self.shared if r.scope is None or
                          any(m.name == r.scope for m in self.service.methods)], scoped=True)

    def write_table(self, rows, scoped=False):
        self.w()
        self.w("| Reason | Status | The caller reads | Where |")
        self.w("|---|---|---|---|")
        for r in rows:
            reason = "—"
            if r.reason:
                reason = f"`{r.reason}`"
                if r.reason not in self.anchored:
                    reason = f'<a id="{anchor("reason", r.reason)}"></a>`{r.reason}`'
                    self.anchored.add(r.reason)
            where = f"`{os.path.basename(r.path)}`"
            if scoped and r.scope:
                where += f" ({r.scope} only)"
            note = f" ({r.note})" if r.note else ""
            self.w(f"| {reason} | {r.status} | {r.message.replace('|', chr(92) + '|')}{note} | {where} |")


def referenced(field):
    if field.map_entry is not None:
        return [f.type_ref for f in field.map_entry.fields if f.type_ref is not None]
    return [field.type_ref] if field.type_ref is not None else []


def method_set(root, folder, name):
    """The members of `var <name>: MethodSet { [Method.a, ...] }` in Services/<folder>, e.g. the public RPCs."""
    members = set()
    for path in refusals.swift_files(root, f"Services/{folder}"):
        with open(path, encoding="utf-8") as f:
            text = f.read()
        match = re.search(rf"var {name}: MethodSet \{{\s*\[(.*?)\]\s*\}}", text, re.S)
        if match:
            items = [i.strip() for i in match.group(1).split(",") if i.strip()]
            for item in items:
                if not re.fullmatch(r"Method\.\w+", item):
                    raise GeneratorError(f"{os.path.relpath(path, root)}: cannot read `{item}` in {name}")
                members.add(item.split(".")[1])
        elif re.search(rf"var {name}\b", text):
            raise GeneratorError(f"{os.path.relpath(path, root)}: cannot read {name}")
    return members
