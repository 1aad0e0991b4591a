/*
 * libsoftrdma: the C side of softrdma's daemon protocol (src/preload/protocol.ts). Preloaded
 * into a program linked with libibverbs (softrdma exec), it defines the exported ibverbs calls
 * and the context's operation vector so that every verbs call becomes one request to
 * `softrdma daemon`, which answers from the verbs face; only posts and polls go through
 * shared-memory rings instead (src/preload/qp-ring.ts, cq-ring.ts). It owns no protocol logic:
 * it packs arguments as `key=value` lines, and unpacks the answers into the C structs by field
 * name.
 */
#ifndef SOFTRDMA_SR_H
#define SOFTRDMA_SR_H

#include <stddef.h>
#include <pthread.h>
#include <stdint.h>
#include <infiniband/verbs.h>

/* The operations of src/preload/protocol.ts (PreloadOp). */
enum sr_op {
	SR_HELLO = 1,
	SR_GET_DEVICES = 2,
	SR_OPEN_DEVICE = 3,
	SR_CLOSE_DEVICE = 4,
	SR_QUERY_DEVICE = 5,
	SR_QUERY_PORT = 6,
	SR_QUERY_GID = 7,
	SR_QUERY_PKEY = 8,
	SR_ALLOC_PD = 9,
	SR_DEALLOC_PD = 10,
	SR_REG_MR = 11,
	SR_DEREG_MR = 12,
	SR_CREATE_COMP_CHANNEL = 13,
	SR_DESTROY_COMP_CHANNEL = 14,
	SR_CREATE_CQ = 15,
	SR_DESTROY_CQ = 16,
	SR_REQ_NOTIFY_CQ = 17,
	SR_POLL_CQ = 18,
	SR_CREATE_QP = 19,
	SR_MODIFY_QP = 20,
	SR_QUERY_QP = 21,
	SR_DESTROY_QP = 22,
	SR_POST_SEND = 23,
	SR_POST_RECV = 24,
	SR_CREATE_AH = 25,
	SR_DESTROY_AH = 26,
	SR_INIT_AH_FROM_WC = 27,
	SR_CREATE_SRQ = 28,
	SR_MODIFY_SRQ = 29,
	SR_QUERY_SRQ = 30,
	SR_DESTROY_SRQ = 31,
	SR_POST_SRQ_RECV = 32,
	SR_ATTACH_MCAST = 33,
	SR_CM_CREATE_CHANNEL = 34,
	SR_CM_DESTROY_CHANNEL = 35,
	SR_CM_CREATE_ID = 36,
	SR_CM_DESTROY_ID = 37,
	SR_CM_BIND_ADDR = 38,
	SR_CM_LISTEN = 39,
	SR_CM_RESOLVE_ADDR = 40,
	SR_CM_RESOLVE_ROUTE = 41,
	SR_CM_ATTACH_QP = 42,
	SR_CM_DETACH_QP = 43,
	SR_CM_CONNECT = 44,
	SR_CM_ACCEPT = 45,
	SR_CM_REJECT = 46,
	SR_CM_DISCONNECT = 47,
	SR_CM_GET_EVENT = 48,
	SR_CM_ACK_EVENT = 49,
	SR_CM_MIGRATE_ID = 50,
	SR_CM_SET_OPTION = 51,
	SR_CM_JOIN_MCAST = 52,
	SR_CM_LEAVE_MCAST = 53,
	SR_RESIZE_CQ = 54,
	SR_GET_ASYNC_EVENT = 55,
	SR_DOORBELL = 56,
};

#define SR_MAX_FRAME (64 * 1024)

/* A request payload being built: `key=value\n` lines. */
struct sr_req {
	char buf[SR_MAX_FRAME - 8];
	size_t len;
	int overflow;
};

/* An answer: errno (0: success), its payload (NUL-terminated), and an fd the daemon passed (or -1). */
struct sr_ans {
	int err;
	char buf[SR_MAX_FRAME];
	size_t len;
	int fd;
};

void sr_req_init(struct sr_req *r);
void sr_put_u64(struct sr_req *r, const char *key, uint64_t v);
void sr_put_i64(struct sr_req *r, const char *key, int64_t v);
void sr_put_str(struct sr_req *r, const char *key, const char *v);
/* `prefix.i.key=v`: a field of the i-th element of a list. */
void sr_put_idx(struct sr_req *r, const char *prefix, unsigned i, const char *key, uint64_t v);

/*
 * One request and its answer. Returns the daemon's errno (0: success), or the errno of the
 * socket when the daemon cannot be reached. `send_fd` >= 0 is passed with SCM_RIGHTS.
 */
int sr_call(enum sr_op op, const struct sr_req *req, struct sr_ans *ans, int send_fd);

/*
 * A request the daemon does not answer (the doorbell): written, not waited for. Returns 0, or
 * the errno of the socket.
 */
int sr_notify(enum sr_op op, const struct sr_req *req);

/* This thread's request (emptied) and answer buffers. */
struct sr_req *sr_req_tls(void);
struct sr_ans *sr_ans_tls(void);

/* The value of `key` in an answer, or NULL. */
const char *sr_get(const struct sr_ans *a, const char *key);
/* The value of `key` as an unsigned integer, or `dflt` when absent. */
uint64_t sr_get_u64(const struct sr_ans *a, const char *key, uint64_t dflt);
uint64_t sr_get_idx(const struct sr_ans *a, const char *prefix, unsigned i, const char *key, uint64_t dflt);

/* One line on stderr naming a call softrdma does not support; returns EOPNOTSUPP. */
int sr_unsupported(const char *call);

/* A struct member by its C name, for filling a struct from an answer. */
struct sr_field {
	const char *name;
	size_t off;
	size_t size;
};
#define SR_FIELD(T, f) { #f, offsetof(T, f), sizeof(((T *)0)->f) }
/*
 * Sets each member named `prefix` + name in the answer (integers of 1, 2, 4 or 8 bytes) whose
 * end is within `limit`.
 */
void sr_fill(void *dst, const struct sr_field *fields, size_t n, const struct sr_ans *a, size_t limit, const char *prefix);
/* Puts every member as `prefix` + name = value. */
void sr_put_fields(struct sr_req *r, const void *src, const struct sr_field *fields, size_t n, const char *prefix);
/* Bytes as hex digits; and back (0, or -1 when absent or not 2n digits). */
void sr_put_hex(struct sr_req *r, const char *key, const void *p, size_t n);
int sr_get_hex(const struct sr_ans *a, const char *key, void *out, size_t n);
#define SR_COUNT(t) (sizeof(t) / sizeof((t)[0]))

/* The softrdma objects behind the verbs structs. */
struct sr_context {
	struct verbs_context vctx; /* must stay first: ibv_context is its last member */
	uint32_t handle;
};

static inline uint32_t sr_ctx_handle(struct ibv_context *c)
{
	return ((struct sr_context *)((char *)c - offsetof(struct verbs_context, context)))->handle;
}

void sr_context_ops(struct sr_context *c);

/* The layout of a QP's or S-RQ's work-request rings (src/preload/qp-ring.ts). */
#define QR_HEADER 128
#define QR_SQ_FIELDS 128
#define QR_RQ_SLOT 32
#define QR_MAX_ENTRIES (1u << 14)
#define QR_MAX_INLINE 1024u
enum {
	QR_SQ_PROD = 0,
	QR_RQ_PROD = 1,
	QR_DOORBELL = 2,
	QR_SQ_RETIRED = 17,
	QR_RQ_RETIRED = 19,
	QR_STATE = 20,
	QR_SQ_OPCODES = 21,
	QR_SQ_CAP = 22,
	QR_RQ_CAP = 23,
};
/* A memfd of `bytes` mapped for rings (touched, so the pages are the program's), or NULL. */
uint32_t *sr_rings_map(size_t bytes, int *fd);
/*
 * Writes a receive WR list into a receive ring of `entries` slots at `slots` if the ring takes
 * all of it (1: at most one SGE each, room for all), else nothing (0). `posted` counts the
 * queue's posts. The caller holds the queue's lock.
 */
int sr_ring_recv(uint32_t *h, unsigned char *slots, uint32_t entries, uint32_t *posted, struct ibv_recv_wr *wr);
/*
 * After a ring write was tried with `lock` held: when it was `taken`, unlocks, rings the doorbell
 * and returns 1; otherwise returns 0 with the lock still held for the request that follows.
 */
int sr_ring_posted(pthread_mutex_t *lock, uint32_t *h, const char *key, uint32_t handle, int taken);
/* Tells the daemon (`key=handle`) the rings have WRs, unless a doorbell it has not taken is on its way. */
void sr_ring_doorbell(uint32_t *h, const char *key, uint32_t handle);

/* `struct ibv_wc`'s members by name (cq.c); `struct ibv_ah_attr`'s (ah.c); a receive WR list (qp.c). */
extern const struct sr_field sr_wc_fields[];
extern const size_t sr_wc_nfields;
void sr_put_ah_attr(struct sr_req *r, const struct ibv_ah_attr *ah, const char *prefix);
void sr_get_ah_attr(const struct sr_ans *a, struct ibv_ah_attr *ah, const char *prefix);
void sr_put_recv_wrs(struct sr_req *r, const struct ibv_recv_wr *wr);
int sr_post_result(int e, const struct sr_ans *a, void *first, void **bad, size_t next_off);

#endif
