"""Just enough of Swift's syntax to read a call's arguments: string literals (with interpolation), nesting,
labels. The refusal scanner (refusals.py) reads the services' Swift sources with it."""

import re

from .model import GeneratorError


class Literal:
    """A string literal: its text, with each interpolation `\\(expr)` kept as the expression's source."""

    def __init__(self, parts):
        self.parts = parts  # str pieces and Interpolation pieces, in order

    def render(self, resolve):
        """The text, each interpolation replaced by `resolve(expr)`."""
        return "".join(p if isinstance(p, str) else resolve(p.expr) for p in self.parts)


class Interpolation:
    def __init__(self, expr):
        self.expr = expr


ESCAPES = {"n": "\n", "t": "\t", '"': '"', "\\": "\\", "'": "'", "0": "\0"}


def read_string(text, pos):
    """The literal starting at `pos` (a `"` or `\"\"\"`) and the position after it."""
    triple = text.startswith('"""', pos)
    quote = '"""' if triple else '"'
    i = pos + len(quote)
    parts, piece = [], []
    while i < len(text):
        if text.startswith(quote, i):
            parts.append("".join(piece))
            return Literal([p for p in parts if p != ""]), i + len(quote)
        c = text[i]
        if c == "\\":
            nxt = text[i + 1]
            if nxt == "(":
                end = skip_balanced(text, i + 1)
                parts.append("".join(piece))
                piece = []
                parts.append(Interpolation(text[i + 2:end - 1].strip()))
                i = end
                continue
            if nxt == "u":
                end = text.index("}", i)
                piece.append(chr(int(text[i + 3:end], 16)))
                i = end + 1
                continue
            piece.append(ESCAPES.get(nxt, nxt))
            i += 2
            continue
        if c == "\n" and not triple:
            break
        piece.append(c)
        i += 1
    raise GeneratorError(f"unterminated string literal at offset {pos}")


def skip_balanced(text, pos):
    """From an opening bracket at `pos`, the position after its match (strings and comments skipped)."""
    pairs = {"(": ")", "[": "]", "{": "}"}
    stack = []
    i = pos
    while i < len(text):
        c = text[i]
        if c == '"':
            _, i = read_string(text, i)
            continue
        if text.startswith("//", i):
            i = text.index("\n", i)
            continue
        if c in pairs:
            stack.append(pairs[c])
        elif c in ")]}":
            if not stack or stack.pop() != c:
                raise GeneratorError(f"unbalanced '{c}' at offset {i}")
            if not stack:
                return i + 1
        i += 1
    raise GeneratorError(f"unbalanced bracket at offset {pos}")


class Argument:
    """One argument of a call: its label (None when unlabelled), its source, and its literal if it is one."""

    def __init__(self, label, source, literal):
        self.label, self.source, self.literal = label, source, literal

    @property
    def member(self):
        """`code` when the argument is `.code`, else None."""
        match = re.fullmatch(r"\.(\w+)", self.source)
        return match.group(1) if match else None


def arguments(text, open_paren):
    """The arguments of the call whose `(` is at `open_paren`, and the position after its `)`."""
    end = skip_balanced(text, open_paren)
    inner = text[open_paren + 1:end - 1]
    args, start, i = [], 0, 0
    while i <= len(inner):
        if i == len(inner) or inner[i] == ",":
            raw = inner[start:i].strip()
            if raw:
                args.append(parse_argument(raw))
            start = i + 1
            i += 1
            continue
        c = inner[i]
        if c == '"':
            _, i = read_string(inner, i)
        elif c in "([{":
            i = skip_balanced(inner, i)
        elif inner.startswith("//", i):
            i = inner.index("\n", i)
        else:
            i += 1
    return args, end


def parse_argument(raw):
    label = None
    match = re.match(r"(\w+)\s*:(?!:)\s*", raw)
    if match and not raw.startswith('"'):
        label, raw = match.group(1), raw[match.end():]
    literal = None
    if raw.startswith('"'):
        literal, end = read_string(raw, 0)
        if raw[end:].strip():
            literal = None  # a literal with more after it (`"a" + b`): an expression, not a literal
    return Argument(label, raw, literal)


def line_of(text, pos):
    return text.count("\n", 0, pos) + 1


def strip_comments(text):
    """The source with `//` comments blanked (strings kept), so that a call named in a comment is not read."""
    out, i = [], 0
    while i < len(text):
        if text.startswith('#"', i):
            # A raw string: no escapes, no comments, up to its closing `"#` (`"""#` for a multi-line one).
            end = text.index('"""#' if text.startswith('#"""', i) else '"#', i + 2) + 2
            out.append(text[i:end])
            i = end
        elif text[i] == '"':
            _, end = read_string(text, i)
            out.append(text[i:end])
            i = end
        elif text.startswith("//", i):
            end = text.find("\n", i)
            end = len(text) if end < 0 else end
            out.append(" " * (end - i))
            i = end
        else:
            out.append(text[i])
            i += 1
    return "".join(out)


def enclosing_function(text, pos):
    """(name, parameter names) of the last `func` declared before `pos`, or None."""
    found = None
    for match in re.finditer(r"\bfunc\s+(\w+)\s*(?:<[^>]*>)?\s*\(", text[:pos]):
        found = match
    if not found:
        return None
    args, _ = arguments(text, found.end() - 1)
    # A parameter is `name: Type`, parsed as label `name`, or `label name: Type` / `_ name: Type`, unlabelled.
    names = [a.label if a.label is not None else a.source.split(":")[0].split()[-1] for a in args]
    return found.group(1), names


def blank_strings(text):
    """`text` (comments already stripped) with every string literal's contents blanked, offsets kept: the code
    alone, so that a word in a message or in SQL (`JOIN`, `messages (`) reads as no call."""
    out, i = [], 0
    while i < len(text):
        if text.startswith('#"', i):
            end = text.index('"""#' if text.startswith('#"""', i) else '"#', i + 2) + 2
        elif text[i] == '"':
            _, end = read_string(text, i)
        else:
            out.append(text[i])
            i += 1
            continue
        out.append("".join(c if c == "\n" else " " for c in text[i:end]))
        i = end
    return "".join(out)
