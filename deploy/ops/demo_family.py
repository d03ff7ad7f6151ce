"""A reviewer-ready family on a running stack, made only through the public RPCs (deploy/ops/demo-family runs it
with the repo's venv python): a guardian, a 15-year-old linked to them with parental controls on and a guardian
PIN set, an adult stranger, and a baby profile of the guardian's with a grandparent following it. Emails are
verified and invitations accepted with the links the stack mails, read from its maildir.

  demo_family.py TARGETS MAILDIR [JSON_FILE]

Prints the sign-ins (username, password, who they are); JSON_FILE gets the same with the ids.
"""

import datetime
import json
import pathlib
import re
import secrets
import sys
import time
import uuid

from opsrpc import Refused, Stack, parse_targets

TOKEN_LINE = re.compile(r"^[A-Za-z0-9_-]{43}$", re.MULTILINE)
# Neither one digit repeated nor a straight run: family's rule for a guardian PIN.
PIN = "2580"


def mailed_token(maildir, email, subject, seconds=30):
    """The single-use token alone on its line in the newest mail to `email` whose subject contains `subject`."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        new = pathlib.Path(maildir, "new")
        mails = sorted(new.glob("*"), key=lambda path: path.stat().st_mtime) if new.is_dir() else []
        for mail in reversed(mails):
            head, _, body = mail.read_text(errors="replace").partition("\n\n")
            if f"\nTo: {email}\n" in head + "\n" and subject in head and TOKEN_LINE.search(body):
                return TOKEN_LINE.findall(body)[0]
        time.sleep(0.2)
    raise SystemExit(f"demo-family: no mail to {email} ({subject!r}) reached {maildir} within {seconds} s: "
                     "is the stack delivering to that maildir?")


class Family:
    def __init__(self, stack, maildir):
        self.stack = stack
        self.maildir = maildir
        self.tag = secrets.token_hex(3)
        self.people = {}

    def person(self, role, age, what):
        """Registers, verifies and signs in an account `age` years old (born 1 January)."""
        username = f"demo_{role}_{self.tag}"
        email = f"{username}@example.com"
        password = f"Kindred-{secrets.token_hex(4)}"
        born = datetime.date.today().year - age
        account = self.stack.call("identity", "RegisterAccount", {
            "request_id": str(uuid.uuid4()), "email": email, "username": username, "password": password,
            "date_of_birth": {"year": born, "month": 1, "day": 1}})["account"]
        self.stack.call("identity", "VerifyEmail", {
            "token": mailed_token(self.maildir, email, "Confirm your email address")})
        token = self.stack.call("identity", "Token", {
            "grant_type": "password", "username": username, "password": password})["access_token"]
        self.people[role] = {"username": username, "email": email, "password": password,
                             "user_id": account["user_id"], "age": age, "who": what}
        return account["user_id"], token

    def make(self):
        stack = self.stack
        guardian_id, guardian = self.person("guardian", 41, "guardian of the teen; owns the baby profile")
        teen_id, teen = self.person("teen", 15, "15 years old, parental controls on, guardian PIN set")
        self.person("stranger", 34, "an adult with no tie to the family")
        _, grandparent = self.person("grandparent", 67, "follows the baby profile (grandma)")
        controls = self.until_controls(teen)
        stack.call("family", "InviteGuardian", {"request_id": str(uuid.uuid4()),
                                                "guardian_email": self.people["guardian"]["email"]}, teen)
        stack.call("family", "AcceptGuardianInvitation", {"token": mailed_token(
            self.maildir, self.people["guardian"]["email"], "invited to be a guardian")}, guardian)
        stack.call("family", "SetGuardianPin", {"minor_user_id": teen_id, "pin": PIN, "pin_confirmation": PIN},
                   guardian)
        due = datetime.date.today() + datetime.timedelta(days=60)
        profile = stack.call("family", "CreateBabyProfile", {
            "request_id": str(uuid.uuid4()), "name": "Baby Demo",
            "expected_birth_date": {"year": due.year, "month": due.month, "day": due.day}}, guardian)["profile"]
        stack.call("family", "InviteToBabyProfile", {
            "request_id": str(uuid.uuid4()), "profile_id": profile["profile_id"],
            "email": self.people["grandparent"]["email"], "role": "BABY_ROLE_FOLLOWER"}, guardian)
        stack.call("family", "AcceptBabyProfileInvitation", {
            "token": mailed_token(self.maildir, self.people["grandparent"]["email"], "invited you to"),
            "relationship": "RELATIONSHIP_GRANDMA"}, grandparent)
        return {"people": self.people, "guardian_pin": PIN, "baby_profile_id": profile["profile_id"],
                "teen_controls": controls, "guardian_user_id": guardian_id, "teen_user_id": teen_id}

    def until_controls(self, teen, seconds=30):
        """The teen's controls, once family has made them from identity's user.registered event."""
        deadline = time.monotonic() + seconds
        while True:
            controls = self.stack.call("family", "GetParentalControls", {}, teen).get("controls", {})
            if controls.get("active"):
                return controls
            if time.monotonic() > deadline:
                raise SystemExit("demo-family: family did not turn the teen's parental controls on within "
                                 f"{seconds} s: is it following identity's events?")
            time.sleep(0.3)


def main(argv):
    if len(argv) not in (3, 4):
        print(__doc__, file=sys.stderr)
        return 64
    stack = Stack(parse_targets(argv[1]))
    try:
        family = Family(stack, argv[2]).make()
    except Refused as refused:
        print(f"demo-family: a call was refused: {refused}", file=sys.stderr)
        return 1
    finally:
        stack.close()
    if len(argv) == 4:
        pathlib.Path(argv[3]).write_text(json.dumps(family, indent=2) + "\n")
    print("Sign-ins (identity Token, grant_type password):")
    for role, person in family["people"].items():
        print(f"  {role:<12} {person['username']:<24} {person['password']:<18} {person['who']}")
    print(f"Guardian PIN for the teen's settings: {family['guardian_pin']}")
    print(f"Baby profile: {family['baby_profile_id']} (\"Baby Demo\"), followed by the grandparent")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
