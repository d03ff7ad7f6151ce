// Linux headers that Glibc's Swift module does not export: epoll, eventfd, timerfd, accept4, the TCP
// socket options and malloc_trim; plus one inline shim. Nothing here needs linking.
#include <sys/socket.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/timerfd.h>
#include <netinet/tcp.h>
#include <sys/prctl.h>
#include <malloc.h>

// prctl is variadic, which Swift cannot call: names the calling thread (at most 15 bytes are kept),
// so event loop threads show up as such in perf, top and backtraces.
static inline int CLinuxSystem_setThreadName(const char *name) {
    return prctl(PR_SET_NAME, name, 0, 0, 0);
}

// glibc declares accept4 only under _GNU_SOURCE, which must not be defined here: it changes the
// definition of types (fd_set) that other modules share, and a clean build then fails. Its declaration
// without the _GNU_SOURCE address union:
extern int accept4(int fd, struct sockaddr *address, socklen_t *length, int flags);
