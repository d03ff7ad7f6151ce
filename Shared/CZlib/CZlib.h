// zlib: gzip message compression (grpc-encoding: gzip).
#include <zlib.h>
