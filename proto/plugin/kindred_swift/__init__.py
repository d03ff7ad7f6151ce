"""Kindred's protoc plugin: Swift value types over protobuf-c, generated from the protos."""
