"""grpc.health.v1.Health and server reflection (v1 and v1alpha), as stock tools use them, on every server."""

import grpc
import pytest
from google.protobuf import descriptor_pb2

from grpc.health.v1 import health_pb2, health_pb2_grpc
from grpc.reflection.v1 import reflection_pb2 as reflection_v1, reflection_pb2_grpc as reflection_v1_grpc
from grpc.reflection.v1alpha import reflection_pb2 as reflection_v1alpha
from grpc.reflection.v1alpha import reflection_pb2_grpc as reflection_v1alpha_grpc

SERVING = health_pb2.HealthCheckResponse.SERVING
REFLECTION_APIS = {"v1": (reflection_v1, reflection_v1_grpc), "v1alpha": (reflection_v1alpha, reflection_v1alpha_grpc)}
ALWAYS_SERVED = ["grpc.health.v1.Health", "grpc.reflection.v1.ServerReflection",
                 "grpc.reflection.v1alpha.ServerReflection"]


def test_health_check_reports_serving_for_the_server_and_its_service(target, channel):
    stub = health_pb2_grpc.HealthStub(channel)
    for name in target.health_names:
        reply = stub.Check(health_pb2.HealthCheckRequest(service=name), timeout=5)
        assert reply.status == SERVING, f"Check({name!r}) = {reply}"


def test_health_check_of_an_unknown_service_is_not_found(channel):
    with pytest.raises(grpc.RpcError) as failure:
        health_pb2_grpc.HealthStub(channel).Check(health_pb2.HealthCheckRequest(service="no.such.Service"), timeout=5)
    assert failure.value.code() == grpc.StatusCode.NOT_FOUND


def test_health_watch_streams_serving_first(target, channel):
    watch = health_pb2_grpc.HealthStub(channel).Watch(health_pb2.HealthCheckRequest(service=""), timeout=10)
    first = next(watch)
    assert first.status == SERVING
    watch.cancel()
    with pytest.raises(grpc.RpcError) as failure:
        next(watch)
    assert failure.value.code() == grpc.StatusCode.CANCELLED


def reflect(channel, version, requests):
    module, stubs = REFLECTION_APIS[version]
    stub = stubs.ServerReflectionStub(channel)
    return list(stub.ServerReflectionInfo(iter([module.ServerReflectionRequest(**r) for r in requests]), timeout=10))


@pytest.mark.parametrize("version", sorted(REFLECTION_APIS))
def test_reflection_lists_every_service(target, channel, version):
    (reply,) = reflect(channel, version, [{"list_services": ""}])
    listed = {service.name for service in reply.list_services_response.service}
    expected = set(ALWAYS_SERVED + target.own_services)
    assert expected <= listed, f"missing from the list: {sorted(expected - listed)}"


@pytest.mark.parametrize("version", sorted(REFLECTION_APIS))
def test_reflection_describes_each_listed_service(channel, version):
    (listing,) = reflect(channel, version, [{"list_services": ""}])
    names = [service.name for service in listing.list_services_response.service]
    replies = reflect(channel, version, [{"file_containing_symbol": name} for name in names])
    assert len(replies) == len(names)
    for name, reply in zip(names, replies):
        assert reply.WhichOneof("message_response") == "file_descriptor_response", f"{name}: {reply}"
        files = [descriptor_pb2.FileDescriptorProto.FromString(raw)
                 for raw in reply.file_descriptor_response.file_descriptor_proto]
        declared = {f"{file.package}.{service.name}" for file in files for service in file.service}
        assert name in declared, f"the files returned for {name} declare only {sorted(declared)}"


@pytest.mark.parametrize("version", sorted(REFLECTION_APIS))
def test_reflection_reports_an_unknown_symbol_as_not_found(channel, version):
    (reply,) = reflect(channel, version, [{"file_containing_symbol": "no.such.Symbol"}])
    assert reply.WhichOneof("message_response") == "error_response"
    assert reply.error_response.error_code == grpc.StatusCode.NOT_FOUND.value[0]
