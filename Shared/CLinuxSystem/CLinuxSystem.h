// Linux headers that Glibc's Swift module does not export: epoll, eventfd, timerfd, accept4, the TCP
// socket options and malloc_trim; plus two inline shims. Nothing here needs linking.
#ifndef _GNU_SOURCE
#define _GNU_SOURCE  // accept4
#endif
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

// accept4 takes glibc's transparent-union address type under _GNU_SOURCE, which Swift cannot pass a
// sockaddr pointer to: accepts with plain pointers.
static inline int CLinuxSystem_accept4(int fd, struct sockaddr *address, socklen_t *length, int flags) {
    return accept4(fd, address, length, flags);
}
