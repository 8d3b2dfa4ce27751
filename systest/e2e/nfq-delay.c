/*
 * nfq-delay: holds the packets of one NFQUEUE for a while, then accepts (or drops) them. The kernel
 * here has no `tc netem`; iptables' NFQUEUE target plus this program make one path slower than
 * another, for real, so RTT ordering is measured rather than assumed.
 *
 *   nfq-delay QUEUE_NUM DELAY_MS                  every packet waits DELAY_MS
 *   nfq-delay QUEUE_NUM --rules FILE --seed N     per path: delay, jitter and loss from FILE
 *
 * FILE has one rule a line, the first that matches a packet's IPv4 source and destination wins:
 *
 *   # SRC_CIDR        DST_CIDR         MEAN_MS JITTER_MS LOSS_PERCENT
 *   198.18.160.0/24   198.18.164.11/32 45      20        5
 *
 * A matched packet waits a time drawn uniformly from [MEAN-JITTER, MEAN+JITTER] (never below 0),
 * or is dropped with LOSS_PERCENT probability; a packet no rule matches is accepted at once. The
 * draws come from xorshift64* seeded by N, so a seed gives the same sequence of draws (which packet
 * gets which draw depends on arrival order). SIGHUP reads FILE again (a route change); a file that
 * does not parse leaves the old rules in force and says why on stderr. SIGUSR1 prints the counts
 * (delayed, dropped, unmatched, overflow), as does SIGTERM/SIGINT, which first lets every held
 * packet go.
 *
 * With jitter, packets leave out of order, so the held packets are a min-heap by due time (a
 * sequence number breaks ties, so equal delays keep arrival order). The heap is bounded: when it is
 * full a packet is accepted at once and counted as overflow. One ppoll() loop, no threads.
 */
#define _GNU_SOURCE /* ppoll */
#include <arpa/inet.h>
#include <errno.h>
#include <linux/netfilter.h>
#include <libnetfilter_queue/libnetfilter_queue.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>

#define HELD 65536       /* packets held at once; the kernel queue gets the same bound */
#define MAX_RULES 4096   /* a rules file with more is refused */
#define MAX_LINE 512     /* a longer line is refused */
#define COPY_BYTES 64    /* enough of each packet for its IPv4 header */

typedef struct { uint32_t id; int64_t due; uint64_t seq; } held_t;
typedef struct { uint32_t src, src_mask, dst, dst_mask; int64_t mean_ns, jitter_ns; uint32_t loss_ppm; } rule_t;

static held_t heap[HELD];
static unsigned held;
static uint64_t seq;
static rule_t *rules;      /* NULL in fixed-delay mode */
static unsigned rule_count;
static int64_t fixed_ns;
static uint64_t rng;
static unsigned long long delayed, dropped, unmatched, overflow;
static volatile sig_atomic_t want_reload, want_counts, want_exit;

static int64_t now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (int64_t) t.tv_sec * 1000000000 + t.tv_nsec;
}

/* xorshift64*: small, fast and reproducible from the seed (splitmix64 spreads a small seed). */
static void seed_rng(uint64_t s) {
    uint64_t z = s + 0x9e3779b97f4a7c15ULL;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    rng = (z ^ (z >> 31)) | 1;
}
static uint64_t next_rng(void) {
    rng ^= rng >> 12;
    rng ^= rng << 25;
    rng ^= rng >> 27;
    return rng * 0x2545f4914f6cdd1dULL;
}
static uint64_t below(uint64_t n) { return n == 0 ? 0 : next_rng() % n; }

static int earlier(const held_t *a, const held_t *b) {
    return a->due < b->due || (a->due == b->due && a->seq < b->seq);
}
static void push(uint32_t id, int64_t due) {
    unsigned i = held++;
    heap[i] = (held_t) {.id = id, .due = due, .seq = seq++};
    while (i > 0 && earlier(&heap[i], &heap[(i - 1) / 2])) {
        held_t t = heap[i];
        heap[i] = heap[(i - 1) / 2];
        heap[(i - 1) / 2] = t;
        i = (i - 1) / 2;
    }
}
static held_t pop(void) {
    held_t top = heap[0];
    heap[0] = heap[--held];
    unsigned i = 0;
    for (;;) {
        unsigned l = 2 * i + 1, r = l + 1, m = i;
        if (l < held && earlier(&heap[l], &heap[m])) m = l;
        if (r < held && earlier(&heap[r], &heap[m])) m = r;
        if (m == i) break;
        held_t t = heap[i];
        heap[i] = heap[m];
        heap[m] = t;
        i = m;
    }
    return top;
}

static int parse_cidr(const char *text, uint32_t *net, uint32_t *mask) {
    char addr[32];
    const char *slash = strchr(text, '/');
    size_t len = slash ? (size_t) (slash - text) : strlen(text);
    if (len == 0 || len >= sizeof addr) return -1;
    memcpy(addr, text, len);
    addr[len] = 0;
    struct in_addr a;
    if (inet_pton(AF_INET, addr, &a) != 1) return -1;
    long bits = 32;
    if (slash) {
        char *end;
        bits = strtol(slash + 1, &end, 10);
        if (end == slash + 1 || *end || bits < 0 || bits > 32) return -1;
    }
    *mask = bits == 0 ? 0 : htonl(0xffffffffu << (32 - bits));
    *net = a.s_addr & *mask;
    return 0;
}

static int parse_number(const char *text, double max, double *out) {
    char *end;
    errno = 0;
    double v = strtod(text, &end);
    if (end == text || *end || errno || !(v >= 0 && v <= max)) return -1;
    *out = v;
    return 0;
}

/* Reads FILE into a new rule table; on any error says file:line:what and returns NULL. */
static rule_t *read_rules(const char *path, unsigned *count) {
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "nfq-delay: %s: %s\n", path, strerror(errno));
        return NULL;
    }
    rule_t *table = calloc(MAX_RULES, sizeof *table);
    char line[MAX_LINE + 2];
    unsigned n = 0, number = 0;
    const char *error = NULL;
    while (!error && fgets(line, sizeof line, f)) {
        number++;
        size_t len = strlen(line);
        if (len > MAX_LINE && line[len - 1] != '\n') { error = "line longer than 512 characters"; break; }
        char *hash = strchr(line, '#');
        if (hash) *hash = 0;
        char *field[6];
        int fields = 0;
        for (char *save, *t = strtok_r(line, " \t\r\n", &save); t; t = strtok_r(NULL, " \t\r\n", &save)) {
            if (fields == 6) break;
            field[fields++] = t;
        }
        if (fields == 0) continue;
        if (fields != 5) { error = "want SRC_CIDR DST_CIDR MEAN_MS JITTER_MS LOSS_PERCENT"; break; }
        if (n == MAX_RULES) { error = "more than 4096 rules"; break; }
        rule_t *r = &table[n];
        double mean, jitter, loss;
        if (parse_cidr(field[0], &r->src, &r->src_mask)) error = "SRC_CIDR is not an IPv4 address[/bits]";
        else if (parse_cidr(field[1], &r->dst, &r->dst_mask)) error = "DST_CIDR is not an IPv4 address[/bits]";
        else if (parse_number(field[2], 60000, &mean)) error = "MEAN_MS is not a number from 0 to 60000";
        else if (parse_number(field[3], 60000, &jitter)) error = "JITTER_MS is not a number from 0 to 60000";
        else if (parse_number(field[4], 100, &loss)) error = "LOSS_PERCENT is not a number from 0 to 100";
        else {
            r->mean_ns = (int64_t) (mean * 1e6);
            r->jitter_ns = (int64_t) (jitter * 1e6);
            r->loss_ppm = (uint32_t) (loss * 10000 + 0.5);
            n++;
        }
    }
    if (!error && ferror(f)) error = strerror(errno);
    fclose(f);
    if (error) {
        fprintf(stderr, "nfq-delay: %s:%u: %s\n", path, number, error);
        free(table);
        return NULL;
    }
    *count = n;
    return table;
}

static const rule_t *match(const unsigned char *packet, int len) {
    if (len < 20 || (packet[0] >> 4) != 4) return NULL;
    uint32_t src, dst;
    memcpy(&src, packet + 12, 4);
    memcpy(&dst, packet + 16, 4);
    for (unsigned i = 0; i < rule_count; i++) {
        const rule_t *r = &rules[i];
        if ((src & r->src_mask) == r->src && (dst & r->dst_mask) == r->dst) return r;
    }
    return NULL;
}

static int on_packet(struct nfq_q_handle *qh, struct nfgenmsg *msg, struct nfq_data *nfa, void *data) {
    (void) msg;
    (void) data;
    struct nfqnl_msg_packet_hdr *ph = nfq_get_msg_packet_hdr(nfa);
    uint32_t id = ph ? ntohl(ph->packet_id) : 0;
    int64_t wait = fixed_ns;
    if (rules) {
        unsigned char *packet;
        int len = nfq_get_payload(nfa, &packet);
        const rule_t *r = match(packet, len);
        if (!r) {
            unmatched++;
            return nfq_set_verdict(qh, id, NF_ACCEPT, 0, NULL);
        }
        if (r->loss_ppm && below(1000000) < r->loss_ppm) {
            dropped++;
            return nfq_set_verdict(qh, id, NF_DROP, 0, NULL);
        }
        wait = r->mean_ns - r->jitter_ns + (int64_t) below((uint64_t) (2 * r->jitter_ns + 1));
        if (wait < 0) wait = 0;
    }
    if (held >= HELD) { /* full: let it through rather than drop */
        overflow++;
        return nfq_set_verdict(qh, id, NF_ACCEPT, 0, NULL);
    }
    delayed++;
    push(id, now_ns() + wait);
    return 0;
}

static void print_counts(void) {
    fprintf(stderr, "nfq-delay: delayed %llu, dropped %llu, unmatched %llu, overflow %llu, held %u\n",
            delayed, dropped, unmatched, overflow, held);
}

static void on_signal(int sig) {
    if (sig == SIGHUP) want_reload = 1;
    else if (sig == SIGUSR1) want_counts = 1;
    else want_exit = 1;
}

static void usage(const char *self) {
    fprintf(stderr, "usage: %s QUEUE_NUM DELAY_MS\n       %s QUEUE_NUM --rules FILE --seed N\n", self, self);
}

int main(int argc, char **argv) {
    const char *path = NULL;
    int num = atoi(argc > 1 ? argv[1] : "0");
    if (argc == 3) {
        fixed_ns = (int64_t) atoi(argv[2]) * 1000000;
    } else if (argc == 6 && !strcmp(argv[2], "--rules") && !strcmp(argv[4], "--seed")) {
        path = argv[3];
        char *end;
        unsigned long long s = strtoull(argv[5], &end, 10);
        if (end == argv[5] || *end) {
            usage(argv[0]);
            return 2;
        }
        seed_rng(s);
        if (!(rules = read_rules(path, &rule_count))) return 2;
    } else {
        usage(argv[0]);
        return 2;
    }
    /* The signals are blocked except inside ppoll(), so none is missed between a check and the wait. */
    struct sigaction sa = {.sa_handler = on_signal};
    sigset_t mask, waiting;
    sigemptyset(&sa.sa_mask);
    sigemptyset(&mask);
    int signals[] = {SIGHUP, SIGUSR1, SIGTERM, SIGINT};
    for (unsigned i = 0; i < sizeof signals / sizeof *signals; i++) {
        sigaction(signals[i], &sa, NULL);
        sigaddset(&mask, signals[i]);
    }
    sigprocmask(SIG_BLOCK, &mask, &waiting);
    struct nfq_handle *h = nfq_open();
    if (!h) {
        perror("nfq_open");
        return 1;
    }
    struct nfq_q_handle *queue = nfq_create_queue(h, num, &on_packet, NULL);
    if (!queue || nfq_set_mode(queue, rules ? NFQNL_COPY_PACKET : NFQNL_COPY_META, COPY_BYTES) < 0) {
        perror("nfq_create_queue");
        return 1;
    }
    nfq_set_queue_maxlen(queue, HELD);
    int fd = nfq_fd(h);
    char buf[65536] __attribute__((aligned));
    if (rules) fprintf(stderr, "nfq-delay: queue %d, %u rules from %s\n", num, rule_count, path);
    else fprintf(stderr, "nfq-delay: queue %d, %d ms\n", num, atoi(argv[2]));
    while (!want_exit) {
        if (want_reload) {
            want_reload = 0;
            if (!rules) {
                fprintf(stderr, "nfq-delay: SIGHUP ignored: no rules file (fixed delay)\n");
            } else {
                unsigned count;
                rule_t *fresh = read_rules(path, &count);
                if (fresh) {
                    free(rules);
                    rules = fresh;
                    rule_count = count;
                    fprintf(stderr, "nfq-delay: %u rules read again from %s\n", count, path);
                } else {
                    fprintf(stderr, "nfq-delay: keeping the old %u rules\n", rule_count);
                }
            }
        }
        if (want_counts) {
            want_counts = 0;
            print_counts();
        }
        struct timespec timeout, *until = NULL;
        if (held) {
            int64_t left = heap[0].due - now_ns();
            if (left < 0) left = 0;
            timeout = (struct timespec) {.tv_sec = left / 1000000000, .tv_nsec = left % 1000000000};
            until = &timeout;
        }
        struct pollfd p = {.fd = fd, .events = POLLIN};
        int r = ppoll(&p, 1, until, &waiting);
        if (r < 0 && errno != EINTR) {
            perror("ppoll");
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
        while (held && heap[0].due <= t) nfq_set_verdict(queue, pop().id, NF_ACCEPT, 0, NULL);
    }
    while (held) nfq_set_verdict(queue, pop().id, NF_ACCEPT, 0, NULL); /* nothing stays stuck */
    print_counts();
    nfq_destroy_queue(queue);
    nfq_close(h);
    return 0;
}
