/*
 * nfq-delay: holds every packet of one NFQUEUE for a fixed time, then accepts it. The kernel here
 * has no `tc netem`; nftables' `queue num N` plus this program make one ISP link slower than
 * another, for real, so RTT ordering is measured rather than assumed.
 *
 *   nfq-delay QUEUE_NUM DELAY_MS
 *
 * All packets of a queue wait the same time, so they leave in arrival order: a ring of
 * (packet id, due time) and one poll() loop suffice, with no threads.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <linux/netfilter.h>
#include <libnetfilter_queue/libnetfilter_queue.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <time.h>

#define RING 65536

static struct { uint32_t id; int64_t due; } ring[RING];
static unsigned head, tail;
static int64_t delay_ns;
static struct nfq_q_handle *queue;

static int64_t now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (int64_t) t.tv_sec * 1000000000 + t.tv_nsec;
}

static int on_packet(struct nfq_q_handle *qh, struct nfgenmsg *msg, struct nfq_data *nfa, void *data) {
    (void) msg;
    (void) data;
    struct nfqnl_msg_packet_hdr *ph = nfq_get_msg_packet_hdr(nfa);
    uint32_t id = ph ? ntohl(ph->packet_id) : 0;
    if (tail - head >= RING) { /* full: let it through rather than drop */
        return nfq_set_verdict(qh, id, NF_ACCEPT, 0, NULL);
    }
    ring[tail % RING].id = id;
    ring[tail % RING].due = now_ns() + delay_ns;
    tail++;
    return 0;
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: %s QUEUE_NUM DELAY_MS\n", argv[0]);
        return 2;
    }
    int num = atoi(argv[1]);
    delay_ns = (int64_t) atoi(argv[2]) * 1000000;
    struct nfq_handle *h = nfq_open();
    if (!h) {
        perror("nfq_open");
        return 1;
    }
    queue = nfq_create_queue(h, num, &on_packet, NULL);
    if (!queue || nfq_set_mode(queue, NFQNL_COPY_META, 0) < 0) {
        perror("nfq_create_queue");
        return 1;
    }
    nfq_set_queue_maxlen(queue, RING);
    int fd = nfq_fd(h);
    char buf[65536] __attribute__((aligned));
    fprintf(stderr, "nfq-delay: queue %d, %d ms\n", num, atoi(argv[2]));
    for (;;) {
        int timeout = -1;
        if (head != tail) {
            int64_t left = ring[head % RING].due - now_ns();
            timeout = left <= 0 ? 0 : (int) ((left + 999999) / 1000000);
        }
        struct pollfd p = {.fd = fd, .events = POLLIN};
        int r = poll(&p, 1, timeout);
        if (r < 0 && errno != EINTR) {
            perror("poll");
            return 1;
        }
        if (r > 0) {
            int n = recv(fd, buf, sizeof buf, 0);
            if (n >= 0) {
                nfq_handle_packet(h, buf, n);
            } else if (errno == ENOBUFS) {
                fprintf(stderr, "nfq-delay: queue overrun, packets lost\n");
            }
        }
        int64_t t = now_ns();
        while (head != tail && ring[head % RING].due <= t) {
            nfq_set_verdict(queue, ring[head % RING].id, NF_ACCEPT, 0, NULL);
            head++;
        }
    }
}
