"""A retry that overtakes its first attempt: what a client does after a deadline while the first attempt is
still queued in a slow or frozen service, so both run at once. Every copy must get the first result and the
database must hold the write once."""

import concurrent.futures

import grpc

from checks import check_writes
from steady_client import SteadyClient
from workload import calendar_event, message, sign_up, write_addresses

COPIES = 6


def test_copies_of_a_write_sent_at_once_are_answered_with_one_result(stack, people):
    addresses = write_addresses(stack)
    client = SteadyClient()
    for write in (message(people.ada_token, people.ben_id), calendar_event(people.ada_token, people.profile_id),
                  sign_up()):
        channels = [grpc.insecure_channel(addresses[write.method]) for _ in range(COPIES)]
        try:
            with concurrent.futures.ThreadPoolExecutor(COPIES) as pool:
                answers = set(pool.map(lambda channel: write.key(write.call(channel)(write.request, timeout=15)),
                                       channels))
        finally:
            for channel in channels:
                channel.close()
        assert len(answers) == 1, f"{write.method} copies of {write.request_id} were answered {answers}"
        write.answer, write.attempts = answers.pop(), COPIES
        client.writes.append(write)
    check_writes(stack.postgres, client)
