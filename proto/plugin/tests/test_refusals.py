"""The refusal scanner on small Swift trees: what it reads, and that it fails on what it cannot read."""

import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from kindred_swift import refusals  # noqa: E402
from kindred_swift.model import GeneratorError  # noqa: E402


def tree(files):
    root = tempfile.mkdtemp()
    for path, text in files.items():
        os.makedirs(os.path.dirname(os.path.join(root, path)), exist_ok=True)
        with open(os.path.join(root, path), "w") as f:
            f.write(text)
    return root


ERRORS = '''
enum ThingError {
    static func refusal(_ code: StatusCode, _ reason: String, _ message: String) -> RPCError {
        RPCError.refusal(code, reason, message, domain: "kindred.thing")
    }
    // refusal(.notFound, "IN_A_COMMENT", "Not read.")
    static let thingNotFound = refusal(.notFound, "THING_NOT_FOUND", "There is no such thing.")
    static func full() -> RPCError {
        refusal(.resourceExhausted, "THINGS_FULL", "At most \\(Things.maximum) things; \\(who) has them.")
    }
    static func invalid(_ reason: String, field: String, _ message: String) -> RPCError {
        refusal(.invalidArgument, reason, message)
    }
}
enum Things { static let maximum = 1_000 }
'''
RULES = '''
func check() throws {
    throw ThingError.invalid("THING_TOO_BIG", field: "size", "This thing is too big.")
    throw RPCError(.aborted, "Someone else changed it. Try again.")
    throw Kindred.ThingError.refusal(.alreadyExists, "THING_EXISTS", "You have this thing already.")
}
'''


class RefusalScannerTests(unittest.TestCase):
    def test_reads_literals_forwarders_and_constants(self):
        root = tree({"Services/Thing/ThingError.swift": ERRORS, "Services/Thing/Rules.swift": RULES})
        found = {(r.reason, r.status, r.message) for r in refusals.scan_service(root, "Thing")}
        self.assertEqual(found, {
            ("THING_NOT_FOUND", "NOT_FOUND", "There is no such thing."),
            ("THINGS_FULL", "RESOURCE_EXHAUSTED", "At most 1000 things; ‹who› has them."),
            ("THING_TOO_BIG", "INVALID_ARGUMENT", "This thing is too big."),
            (None, "ABORTED", "Someone else changed it. Try again."),
            ("THING_EXISTS", "ALREADY_EXISTS", "You have this thing already."),
        })

    def test_fails_on_a_refusal_it_cannot_read(self):
        root = tree({"Services/Thing/ThingError.swift": ERRORS,
                     "Services/Thing/Odd.swift": 'let e = ThingError.refusal(.notFound, reasons[0], "Gone.")\n'})
        with self.assertRaises(GeneratorError) as caught:
            refusals.scan_service(root, "Thing")
        self.assertIn("Services/Thing/Odd.swift:1", str(caught.exception))

    def test_fails_on_a_reason_that_is_not_machine_readable(self):
        root = tree({"Services/Thing/Odd.swift": 'let e = refusal(.notFound, "not a reason", "Gone.")\n'})
        with self.assertRaises(GeneratorError):
            refusals.scan_service(root, "Thing")


if __name__ == "__main__":
    unittest.main()
