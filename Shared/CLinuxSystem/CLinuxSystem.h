// Linux headers that Glibc's Swift module does not export: epoll, eventfd, timerfd and
// the TCP socket options. Declarations only; nothing here needs linking.
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/timerfd.h>
#include <netinet/tcp.h>
