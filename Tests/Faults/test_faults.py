"""Faults under a steady client: PostgreSQL stopped (fast, immediate) and started, a service SIGKILLed and
restarted, identity frozen (SIGSTOP) past its callers' deadlines, the mail directory made unwritable. Each
test runs the client a moment, makes the fault, holds it, ends it, waits for full recovery (every service
SERVING and every caller answered again), lets the client run a moment more, then checks (checks.py) the
statuses, the deadlines and the database, and records the figures the session prints.
"""

import email.parser
import signal
import time

import pytest

from checks import check_retries_answer_the_first_result, check_statuses, check_writes, figures
from steady_client import WRITE_DEADLINE
from workload import steady_client, write_addresses

BASELINE = 1.5
AFTER = 1.0
# Recovery is measured, then held to this bound: a service reconnects to PostgreSQL or comes back from a
# restart (migrations checked, listeners up) well within it on a loaded 2-core machine.
RECOVERY_BOUND = 20.0
# The mail worker retries a failed send after 30 s (MailDeliveryPolicy's first retry), so a mail the fault
# held back goes out within that and a little more.
MAIL_RECOVERY_BOUND = 45.0


def wait_recovered(stack, client, since, bound=RECOVERY_BOUND):
    """Seconds from `since` until every service is SERVING and every caller had a call answered again."""
    deadline = since + bound
    while time.monotonic() < deadline:
        answered = client.first_success_after(since)
        if answered is not None and stack.all_serving():
            return answered - since
        time.sleep(0.05)
    pytest.fail(f"not recovered within {bound} s of the fault's end")


def under_fault(stack, people, figures_out, fault, inject, repair, hold):
    """Runs the steady client through `inject`, `hold` seconds, `repair`; checks; returns the client and the
    figures. The fault lasts from the start of `inject` to the return of `repair` (PostgreSQL's own start,
    crash recovery included, or a service's restart up to its exec); recovery is measured from then."""
    client = steady_client(stack, people)
    client.start()
    try:
        time.sleep(BASELINE)
        began = time.monotonic()
        inject()
        time.sleep(hold)
        repair()
        ended = time.monotonic()
        recovery = wait_recovered(stack, client, ended)
        time.sleep(AFTER)
    finally:
        client.stop()
    measured = figures(fault, client, ended - began, recovery)
    figures_out.append(measured)
    check_statuses(client)
    check_writes(stack.postgres, client)
    check_retries_answer_the_first_result(client, write_addresses(stack))
    return client, measured


@pytest.mark.parametrize("mode", ["fast", "immediate"])
def test_postgres_stopped_and_started(stack, people, figures, mode):
    postgres = stack.postgres
    _, measured = under_fault(stack, people, figures, f"PostgreSQL stopped -m {mode}",
                              lambda: postgres.stop(mode), postgres.start, hold=3.0)
    assert measured.failed, "nothing failed while PostgreSQL was down: the fault did not reach the client"


@pytest.mark.parametrize("name", ["identity", "family", "social", "gamification"])
def test_service_killed_and_restarted(stack, people, figures, name):
    service = stack.services[name]
    _, measured = under_fault(stack, people, figures, f"kindred-{name} SIGKILLed and restarted",
                              service.kill, service.start, hold=1.0)
    assert measured.failed.get("UNAVAILABLE"), f"no call saw kindred-{name} gone"


def test_identity_frozen_past_the_callers_deadlines(stack, people, figures):
    identity = stack.services["identity"]
    client, measured = under_fault(stack, people, figures, "kindred-identity frozen (SIGSTOP)",
                                   lambda: identity.signal(signal.SIGSTOP),
                                   lambda: identity.signal(signal.SIGCONT), hold=WRITE_DEADLINE + 2.0)
    # Social's user search needs identity on every call: its callers hear the outage too, within their deadline.
    assert any(a.method == "SearchUsers" and a.code is not None for a in client.attempts)


def delivered(maildir, recipients):
    """How many mails each of `recipients` has in the maildir's new/ folder."""
    counts = {recipient: 0 for recipient in recipients}
    parser = email.parser.HeaderParser()
    for path in (maildir / "new").glob("*"):
        recipient = parser.parsestr(path.read_text(errors="replace"))["To"]
        if recipient in counts:
            counts[recipient] += 1
    return counts


def test_mail_directory_unwritable(stack, people, figures):
    # Root ignores permission bits, and a read-only bind mount or chattr +i needs privileges and a file system
    # a container may not give: a regular file where the directory was binds everyone, root included
    # (mkdir and open beneath it fail with ENOTDIR/EEXIST).
    maildir, held = stack.maildir, stack.maildir.with_name(stack.maildir.name + ".held")

    def make_unwritable():
        maildir.rename(held)
        maildir.write_text("not a directory: the fault suite's mail fault\n")

    restored = []

    def make_writable():
        maildir.unlink()
        held.rename(maildir)
        restored.append(time.monotonic())

    # The outbox seals each mail's recipient, so the mails the fault held back are those queued since it began.
    began = stack.postgres.query("SELECT now()::text")[0][0]
    client, measured = under_fault(stack, people, figures, "mail directory unwritable",
                                   make_unwritable, make_writable, hold=3.0)
    restored = restored[0]
    signed_up = [w.request.email for w in client.writes if w.method == "RegisterAccount" and w.answer is not None]
    assert signed_up, "nobody signed up while the mail directory was unwritable"
    outbox = ("SELECT count(*) FILTER (WHERE last_error IS NOT NULL), count(*) FILTER (WHERE sent_at IS NULL) "
              f"FROM identity.mail_outbox WHERE created_at >= '{began}'")
    # Recovered when the last mail the fault held back is in the maildir and marked sent.
    while True:
        missing = [recipient for recipient, count in delivered(maildir, signed_up).items() if count == 0]
        failed_sends, unsent = (int(n) for n in stack.postgres.query(outbox)[0])
        if not missing and unsent == 0:
            break
        assert time.monotonic() - restored < MAIL_RECOVERY_BOUND, (
            f"{MAIL_RECOVERY_BOUND} s after the mail directory came back, {unsent} mails unsent, none in the "
            f"maildir for {missing}")
        time.sleep(0.2)
    measured.recovery = max(measured.recovery, time.monotonic() - restored)
    assert failed_sends > 0, "no send failed: the mail fault did not reach the delivery worker"
