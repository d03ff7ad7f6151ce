// libnghttp2: HTTP/2 framing, HPACK and flow control for the gRPC server and client.
#include <nghttp2/nghttp2.h>
