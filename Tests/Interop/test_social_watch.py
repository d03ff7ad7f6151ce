"""kindred-social's WatchMessages from a stock grpcio client: a stream dropped mid-conversation and reopened
with the cursor of the last message it got receives exactly the messages sent while it was away, then the
next one, and nothing twice.

Needs the identity and social targets in KINDRED_INTEROP_TARGETS and the services' maildir in
KINDRED_TEST_MAILDIR; Tests/run sets them.
"""

import queue
import threading
import uuid

import grpc

from family_support import signed_up
from kindred.social.v1 import social_pb2
from rpc_support import bearer


def send(social, token, to, text):
    return social.SendMessage(social_pb2.SendMessageRequest(
        request_id=str(uuid.uuid4()), recipient_user_id=to, text=text), metadata=bearer(token), timeout=10).message


class Inbox:
    """A WatchMessages stream read on a thread of its own into a queue."""

    def __init__(self, social, token, after_cursor=0):
        self.call = social.WatchMessages(social_pb2.WatchMessagesRequest(after_cursor=after_cursor),
                                         metadata=bearer(token), timeout=60)
        self.received = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        try:
            for message in self.call:
                self.received.put(message)
        except grpc.RpcError as error:
            if error.code() != grpc.StatusCode.CANCELLED:
                self.received.put(error)

    def next(self, seconds=10):
        """The next message; fails if none comes within `seconds`."""
        message = self.received.get(timeout=seconds)
        assert not isinstance(message, grpc.RpcError), message
        return message

    def close(self):
        self.call.cancel()


def test_a_watch_reopened_with_its_last_cursor_gets_exactly_what_it_missed(identity, social):
    ann_id, _, ann_token = signed_up(identity, 30)
    bob_id, _, bob_token = signed_up(identity, 31)

    # Without a cursor a stream sends what arrives after it starts: warm it up until one arrives.
    first = Inbox(social, bob_token)
    for attempt in range(50):
        send(social, ann_token, bob_id, f"warm-up {attempt}")
        try:
            first.next(seconds=0.2)
            break
        except queue.Empty:
            continue
    else:
        raise AssertionError("the stream never delivered a warm-up")

    send(social, ann_token, bob_id, "one")
    send(social, bob_token, ann_id, "a reply: not in bob's stream")
    send(social, ann_token, bob_id, "two")
    got = []
    while not got or got[-1].text != "two":
        message = first.next()
        if not message.text.startswith("warm-up"):
            got.append(message)
    assert [message.text for message in got] == ["one", "two"]
    assert got[0].cursor < got[1].cursor
    first.close()

    send(social, ann_token, bob_id, "three")
    send(social, bob_token, ann_id, "another reply")
    send(social, ann_token, bob_id, "four")
    resumed = Inbox(social, bob_token, after_cursor=got[-1].cursor)
    missed = [resumed.next(), resumed.next()]
    assert [message.text for message in missed] == ["three", "four"]
    send(social, ann_token, bob_id, "five")
    after = resumed.next()
    assert after.text == "five"
    assert [message.cursor for message in missed + [after]] == [got[-1].cursor + n for n in (1, 2, 3)]
    assert all(message.sender.user_id == ann_id for message in missed + [after])
    resumed.close()
