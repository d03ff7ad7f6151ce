// libprotobuf-c: the runtime behind the protoc-c generated message types.
#include <protobuf-c/protobuf-c.h>
