"""Fault suite setup: the interop suite's stubs and helpers (Tests/Interop on the path), the stack it breaks,
the people its steady client acts as, and the figures it prints at the end."""

import json
import os
import pathlib
import sys

import pytest

INTEROP = pathlib.Path(__file__).resolve().parents[1] / "Interop"
sys.path.insert(0, str(INTEROP))

from stubs import generate_stubs  # noqa: E402

generate_stubs(pathlib.Path(os.environ.get("KINDRED_PROTO_DIR", INTEROP.parents[1] / "proto")))
# family_support.signed_up reads the verification mail from here.
os.environ.setdefault("KINDRED_TEST_MAILDIR", os.environ.get("KINDRED_FAULTS_MAILDIR", ""))

from stack import Stack  # noqa: E402
from workload import People  # noqa: E402

FIGURES = []


@pytest.fixture(scope="session")
def stack():
    started = Stack()
    try:
        started.start()
        yield started
    finally:
        started.stop()


@pytest.fixture(scope="session")
def people(stack):
    return People(stack)


@pytest.fixture
def figures():
    """Where a test puts its fault's figures, printed and written out at the end of the session."""
    return FIGURES


def pytest_terminal_summary(terminalreporter):
    if not FIGURES:
        return
    terminalreporter.write_sep("=", "fault figures")
    for figure in FIGURES:
        terminalreporter.write_line(figure.line())
    out = os.environ.get("KINDRED_FAULTS_FIGURES", "")
    if out:
        pathlib.Path(out).write_text(json.dumps([figure.as_dict() for figure in FIGURES], indent=2) + "\n")
