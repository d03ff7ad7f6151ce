"""Helpers the service suites share: reading a refusal's status details, bearer metadata, base64url."""

import base64

import grpc
import pytest

from google.rpc import error_details_pb2, status_pb2


def refusal(call):
    """The status code, ErrorInfo reason and BadRequest field names a call ends with; the call must fail."""
    with pytest.raises(grpc.RpcError) as raised:
        call()
    error = raised.value
    details = dict(error.trailing_metadata() or ()).get("grpc-status-details-bin")
    reason, fields = None, []
    for detail in status_pb2.Status.FromString(details).details if details else []:
        info, bad = error_details_pb2.ErrorInfo(), error_details_pb2.BadRequest()
        if detail.Unpack(info):
            reason = info.reason
        elif detail.Unpack(bad):
            fields = [violation.field for violation in bad.field_violations]
    return error.code(), reason, fields


def error_info(call):
    """The ErrorInfo (reason, metadata) a call ends with; the call must fail and carry one."""
    with pytest.raises(grpc.RpcError) as raised:
        call()
    details = dict(raised.value.trailing_metadata() or ()).get("grpc-status-details-bin")
    for detail in status_pb2.Status.FromString(details).details if details else []:
        info = error_details_pb2.ErrorInfo()
        if detail.Unpack(info):
            return info.reason, dict(info.metadata)
    raise AssertionError(f"{raised.value.code()} carried no ErrorInfo")


def bearer(token):
    return [("authorization", f"Bearer {token}")]


def b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64url(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
