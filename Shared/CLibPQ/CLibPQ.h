// libpq: the PostgreSQL client library.
#include <libpq-fe.h>
