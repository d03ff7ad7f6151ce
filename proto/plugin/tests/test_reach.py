"""reach.py on a small Swift tree: a handler reaches the refusals of what it names, and not its neighbour's."""

import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from kindred_swift import reach, refusals  # noqa: E402
from kindred_swift.model import GeneratorError  # noqa: E402

API = '''
extension ThingAPI {
    func getThing(_ request: Kindred_Thing_V1_GetThingRequest, context: ServerContext) async throws -> X {
        try await things.find(request.id)
    }
    func deleteThing(_ request: Kindred_Thing_V1_DeleteThingRequest, context: ServerContext) async throws -> X {
        try await things.remove(request.id, note: "find( is in a string, not a call")
    }
}
struct ThingAPI { let things: Things }
'''
THINGS = '''
struct Things {
    func find(_ id: String) async throws -> X {
        guard let thing = try await load(id) else { throw ThingError.thingNotFound }
        return thing
    }
    func remove(_ id: String, note: String) async throws -> X {
        throw ThingError.thingLocked
    }
}
enum ThingError {
    static let thingNotFound = refusal(.notFound, "THING_NOT_FOUND", "There is no such thing.")
    static let thingLocked = refusal(.failedPrecondition, "THING_LOCKED", "This thing is locked.")
}
'''


class Method:
    def __init__(self, name):
        self.name = name


class ReachTests(unittest.TestCase):
    def setUp(self):
        root = tempfile.mkdtemp()
        os.makedirs(os.path.join(root, "Services/Thing"))
        for name, text in (("ThingAPI.swift", API), ("Things.swift", THINGS)):
            with open(os.path.join(root, "Services/Thing", name), "w") as f:
                f.write(text)
        self.sources = refusals.service_sources(root, "Thing")
        self.found = refusals.scan_service(root, "Thing", sources=self.sources, every=True)
        self.index = reach.Index(self.sources)

    def reasons(self, rpc, request):
        decls = self.index.reach(self.index.handler(Method(rpc), request))
        held = {id(self.index.holding(*r.at)): r.reason for r in self.found}
        return {held[id(d)] for d in decls if id(d) in held}

    def test_a_handler_reaches_what_it_calls_and_nothing_else(self):
        self.assertEqual(self.reasons("GetThing", "Kindred_Thing_V1_GetThingRequest"), {"THING_NOT_FOUND"})
        self.assertEqual(self.reasons("DeleteThing", "Kindred_Thing_V1_DeleteThingRequest"), {"THING_LOCKED"})

    def test_a_missing_handler_fails(self):
        with self.assertRaises(GeneratorError):
            self.index.handler(Method("ListThings"), "Kindred_Thing_V1_ListThingsRequest")


if __name__ == "__main__":
    unittest.main()
