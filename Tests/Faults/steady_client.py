"""The steady client: a few grpcio callers, each on a channel of its own, making writes that carry a request_id
and reads, every call with a deadline, for as long as a fault test runs. A write that fails is retried with the
same request_id until it is answered; every attempt is recorded with its status and how long it took.
"""

import collections
import dataclasses
import threading
import time

import grpc

# A stopped server must be found again quickly: grpcio's default reconnect backoff starts at 1 s and grows to
# 120 s, which would measure grpcio, not the service. No transparent retries: every attempt is counted.
CHANNEL_OPTIONS = [
    ("grpc.initial_reconnect_backoff_ms", 100),
    ("grpc.min_reconnect_backoff_ms", 100),
    ("grpc.max_reconnect_backoff_ms", 500),
    ("grpc.enable_retries", 0),
]
READ_DEADLINE = 2.0
WRITE_DEADLINE = 3.0
EXPECTED_FAILURES = {grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.DEADLINE_EXCEEDED}
PACE = 0.05
RETRY_PAUSE = 0.1
# How long a write begun before stop() may keep retrying to be answered.
FINISH_SECONDS = 30


@dataclasses.dataclass
class Attempt:
    caller: str
    method: str
    started: float
    ended: float
    deadline: float
    code: grpc.StatusCode  # None when answered
    detail: str = ""


@dataclasses.dataclass
class Write:
    """One write the client meant once: its request_id, every attempt's answer, the id it was answered with."""
    method: str
    request_id: str
    request: object
    call: object
    key: object
    attempts: int = 0
    answer: str = None


class Caller(threading.Thread):
    """Runs `steps` (functions of a Caller) round and round until the client stops."""

    def __init__(self, client, name, address, steps):
        super().__init__(name=f"caller-{name}", daemon=True)
        self.client = client
        self.caller = name
        self.channel = grpc.insecure_channel(address, options=CHANNEL_OPTIONS)
        self.steps = steps

    def run(self):
        try:
            while not self.client.stopping.is_set():
                for step in self.steps:
                    step(self)
                    time.sleep(PACE)
        finally:
            self.channel.close()

    def attempt(self, method, call, request, deadline):
        started = time.monotonic()
        try:
            response = call(self.channel)(request, timeout=deadline)
            code, detail = None, ""
        except grpc.RpcError as error:
            response, code, detail = None, error.code(), error.details() or ""
        self.client.record(Attempt(self.caller, method, started, time.monotonic(), deadline, code, detail))
        return response

    def read(self, method, call, request):
        self.attempt(method, call, request, READ_DEADLINE)

    def write(self, write):
        """Sends `write` until it is answered, the same request_id every time; returns the answer's key."""
        self.client.writes.append(write)
        give_up = None
        while True:
            write.attempts += 1
            response = self.attempt(write.method, write.call, write.request, WRITE_DEADLINE)
            if response is not None:
                write.answer = write.key(response)
                return write.answer
            if self.client.stopping.is_set():
                give_up = give_up or time.monotonic() + FINISH_SECONDS
                if time.monotonic() > give_up:
                    return None
            time.sleep(RETRY_PAUSE)


class SteadyClient:
    def __init__(self):
        self.stopping = threading.Event()
        self.callers = []
        self.attempts = []
        self.writes = []
        self.lock = threading.Lock()

    def add(self, name, address, *steps):
        self.callers.append(Caller(self, name, address, steps))

    def record(self, attempt):
        with self.lock:
            self.attempts.append(attempt)

    def start(self):
        for caller in self.callers:
            caller.start()

    def stop(self):
        self.stopping.set()
        for caller in self.callers:
            caller.join(timeout=FINISH_SECONDS + 10)

    def first_success_after(self, instant):
        """When every caller had a call answered that started after `instant` (None while one has not)."""
        with self.lock:
            attempts = list(self.attempts)
        latest = instant
        for caller in self.callers:
            answered = [a.ended for a in attempts
                        if a.caller == caller.caller and a.code is None and a.started >= instant]
            if not answered:
                return None
            latest = max(latest, min(answered))
        return latest


def longest_outage(attempts):
    """The longest time a caller went unanswered: from the start of a failed call to the end of that caller's
    next answered one (or its last call)."""
    longest = 0.0
    by_caller = collections.defaultdict(list)
    for attempt in sorted(attempts, key=lambda a: a.started):
        by_caller[attempt.caller].append(attempt)
    for calls in by_caller.values():
        failed_since = None
        for attempt in calls:
            if attempt.code is not None:
                failed_since = attempt.started if failed_since is None else failed_since
            elif failed_since is not None:
                longest = max(longest, attempt.ended - failed_since)
                failed_since = None
        if failed_since is not None:
            longest = max(longest, calls[-1].ended - failed_since)
    return longest
