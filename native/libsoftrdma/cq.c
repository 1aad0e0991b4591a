/*
 * Completion channels and CQs. A channel's fd is a socket the daemon holds the other end of:
 * for each completion event it writes the `struct ibv_cq *` the CQ was created with (8 bytes),
 * so `ibv_get_cq_event` is a read and `poll()` on `channel->fd` works.
 *
 * A CQ without a channel has a completion ring (src/preload/cq-ring.ts has the layout): a memfd
 * this library maps and passes at creation, which the daemon fills as completions come, so that
 * `ibv_poll_cq` reads memory and makes no request. Only when the ring is empty and the daemon
 * marked a backlog (the ring filled, or the CQ failed) is a poll one request. A CQ with a
 * channel, or one whose ring the daemon did not take, is polled with one request per poll.
 */
#define _GNU_SOURCE
#include <endian.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <sys/mman.h>
#include <unistd.h>

#include "sr.h"

struct sr_channel {
	struct ibv_comp_channel ch;
	uint32_t handle;
};

struct ibv_comp_channel *ibv_create_comp_channel(struct ibv_context *context)
{
	struct sr_req *r = sr_req_tls();
	struct sr_ans *a = sr_ans_tls();
	struct sr_channel *c;
	int e;

	sr_put_u64(r, "ctx", sr_ctx_handle(context));
	e = sr_call(SR_CREATE_COMP_CHANNEL, r, a, -1);
	if (!e && a->fd < 0)
		e = EPROTO;
	if (e) {
		errno = e;
		return NULL;
	}
	c = calloc(1, sizeof(*c));
	if (!c) {
		close(a->fd);
		errno = ENOMEM;
		return NULL;
	}
	c->ch.context = context;
	c->ch.fd = a->fd;
	c->handle = (uint32_t)sr_get_u64(a, "channel", 0);
	return &c->ch;
}

int ibv_destroy_comp_channel(struct ibv_comp_channel *channel)
{
	struct sr_channel *c = (struct sr_channel *)channel;
	struct sr_req *r = sr_req_tls();
	struct sr_ans *a = sr_ans_tls();
	int e;

	sr_put_u64(r, "channel", c->handle);
	e = sr_call(SR_DESTROY_COMP_CHANNEL, r, a, -1);
	if (e) {
		errno = e;
		return -1;
	}
	close(channel->fd);
	free(c);
	return 0;
}

/* The ring's layout (src/preload/cq-ring.ts). */
#define RING_HEADER 128
#define RING_ENTRY 64
#define RING_MAX_ENTRIES (1u << 16)
#define RING_PROD 0
#define RING_BACKLOG 1
#define RING_CONS 16

struct sr_cq {
	struct ibv_cq cq; /* must stay first: the program holds a pointer to it */
	uint32_t *ring;	  /* NULL: no ring, each poll is a request */
	size_t ring_bytes;
	uint32_t mask;
	pthread_spinlock_t lock;
	/* Polls in a row that found the ring empty. */
	uint32_t empty;
};

/*
 * Empty polls in a row after which a poll yields the CPU: the daemon that fills the ring is a
 * process on the same cores, and a program spinning on an empty ring would take the time the
 * daemon needs to move its work.
 */
#define EMPTY_POLLS_BEFORE_YIELD 16

static uint32_t ring_entries_for(int cqe)
{
	uint32_t n = 16;

	while (n < RING_MAX_ENTRIES && n < (uint32_t)cqe + 1)
		n <<= 1;
	return n;
}

/* A mapped memfd of a ring of `n` entries and its fd, or NULL (no ring: the CQ polls by request). */
static uint32_t *ring_map(uint32_t n, size_t *bytes, int *fd)
{
	void *p;

	*bytes = RING_HEADER + (size_t)RING_ENTRY * n;
	*fd = memfd_create("softrdma-cq", MFD_CLOEXEC);
	if (*fd < 0)
		return NULL;
	if (ftruncate(*fd, (off_t)*bytes) < 0)
		goto fail;
	p = mmap(NULL, *bytes, PROT_READ | PROT_WRITE, MAP_SHARED, *fd, 0);
	if (p == MAP_FAILED)
		goto fail;
	/* The pages are the program's (its memory, its cgroup), not the daemon's first write's. */
	memset(p, 0, *bytes);
	return p;
fail:
	close(*fd);
	*fd = -1;
	return NULL;
}

struct ibv_cq *ibv_create_cq(struct ibv_context *context, int cqe, void *cq_context,
			     struct ibv_comp_channel *channel, int comp_vector)
{
	struct sr_req *r = sr_req_tls();
	struct sr_ans *a = sr_ans_tls();
	struct sr_cq *c = calloc(1, sizeof(*c));
	struct ibv_cq *cq = &c->cq;
	uint32_t n = 0;
	int e, fd = -1;

	if (!c) {
		errno = ENOMEM;
		return NULL;
	}
	if (!channel && cqe > 0) {
		n = ring_entries_for(cqe);
		c->ring = ring_map(n, &c->ring_bytes, &fd);
	}
	for (;;) {
		sr_put_u64(r, "ctx", sr_ctx_handle(context));
		sr_put_i64(r, "cqe", cqe);
		sr_put_u64(r, "channel", channel ? ((struct sr_channel *)channel)->handle : 0);
		sr_put_i64(r, "comp_vector", comp_vector);
		sr_put_u64(r, "user", (uintptr_t)cq);
		if (c->ring)
			sr_put_u64(r, "ring_entries", n);
		e = sr_call(SR_CREATE_CQ, r, a, c->ring ? fd : -1);
		/* A daemon that cannot take the ring (no fd channel): the CQ polls by request. */
		if (e == EOPNOTSUPP && c->ring) {
			munmap(c->ring, c->ring_bytes);
			c->ring = NULL;
			close(fd);
			fd = -1;
			r = sr_req_tls();
			continue;
		}
		break;
	}
	if (fd >= 0)
		close(fd);
	if (e) {
		if (c->ring)
			munmap(c->ring, c->ring_bytes);
		free(c);
		errno = e;
		return NULL;
	}
	if (c->ring && !sr_get_u64(a, "ring", 0)) {
		munmap(c->ring, c->ring_bytes);
		c->ring = NULL;
	}
	c->mask = n - 1;
	pthread_spin_init(&c->lock, PTHREAD_PROCESS_PRIVATE);
	cq->context = context;
	cq->channel = channel;
	cq->cq_context = cq_context;
	cq->handle = (uint32_t)sr_get_u64(a, "cq", 0);
	cq->cqe = (int)sr_get_u64(a, "cqe", (uint64_t)cqe);
	pthread_mutex_init(&cq->mutex, NULL);
	pthread_cond_init(&cq->cond, NULL);
	if (channel)
		channel->refcnt++;
	return cq;
}

int ibv_destroy_cq(struct ibv_cq *cq)
{
	struct sr_req *r = sr_req_tls();
	struct sr_ans *a = sr_ans_tls();
	int e;

	sr_put_u64(r, "cq", cq->handle);
	e = sr_call(SR_DESTROY_CQ, r, a, -1);
	if (e)
		return e;
	if (cq->channel)
		cq->channel->refcnt--;
	{
		struct sr_cq *c = (struct sr_cq *)cq;

		if (c->ring)
			munmap(c->ring, c->ring_bytes);
		pthread_spin_destroy(&c->lock);
		free(c);
	}
	return 0;
}

int ibv_resize_cq(struct ibv_cq *cq, int cqe)
{
	struct sr_req *r = sr_req_tls();
	struct sr_ans *a = sr_ans_tls();
	int e;

	if (!cq || cqe < 1)
		return EINVAL;
	sr_put_u64(r, "cq", cq->handle);
	sr_put_u64(r, "cqe", (uint64_t)cqe);
	e = sr_call(SR_RESIZE_CQ, r, a, -1);
	if (e)
		return e;
	cq->cqe = (int)sr_get_u64(a, "cqe", (uint64_t)cqe);
	return 0;
}

int ibv_get_cq_event(struct ibv_comp_channel *channel, struct ibv_cq **cq, void **cq_context)
{
	uint64_t p;
	size_t got = 0;

	while (got < sizeof(p)) {
		ssize_t n = read(channel->fd, (char *)&p + got, sizeof(p) - got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EAGAIN && got > 0)
			continue;
		if (n <= 0) {
			if (n == 0)
				errno = EIO;
			return -1;
		}
		got += (size_t)n;
	}
	*cq = (struct ibv_cq *)(uintptr_t)p;
	*cq_context = (*cq)->cq_context;
	return 0;
}

void ibv_ack_cq_events(struct ibv_cq *cq, unsigned int nevents)
{
	pthread_mutex_lock(&cq->mutex);
	cq->comp_events_completed += nevents;
	pthread_cond_signal(&cq->cond);
	pthread_mutex_unlock(&cq->mutex);
}

static int req_notify_cq(struct ibv_cq *cq, int solicited_only)
{
	struct sr_req *r = sr_req_tls();
	struct sr_ans *a = sr_ans_tls();

	sr_put_u64(r, "cq", cq->handle);
	sr_put_u64(r, "solicited_only", solicited_only ? 1 : 0);
	return sr_call(SR_REQ_NOTIFY_CQ, r, a, -1);
}

#define WC(f) SR_FIELD(struct ibv_wc, f)
const struct sr_field sr_wc_fields[] = {
	WC(wr_id), WC(status), WC(opcode), WC(vendor_err), WC(byte_len), WC(qp_num), WC(src_qp),
	WC(wc_flags), WC(pkey_index), WC(slid), WC(sl), WC(dlid_path_bits),
};
const size_t sr_wc_nfields = SR_COUNT(sr_wc_fields);

/* Up to `num` completions from the ring (the CQ's lock held). */
static int ring_poll(struct sr_cq *c, int num, struct ibv_wc *wc)
{
	uint32_t cons = c->ring[RING_CONS];
	uint32_t prod = __atomic_load_n(&c->ring[RING_PROD], __ATOMIC_ACQUIRE);
	int k = 0;

	for (; k < num && cons != prod; k++, cons++) {
		const unsigned char *e = (const unsigned char *)c->ring + RING_HEADER + (size_t)(cons & c->mask) * RING_ENTRY;
		uint32_t u[10];
		uint16_t h[2];

		memcpy(u, e + 8, sizeof(u));
		memcpy(h, e + 40, sizeof(h));
		memset(&wc[k], 0, sizeof(wc[k]));
		memcpy(&wc[k].wr_id, e, 8);
		wc[k].status = (enum ibv_wc_status)u[0];
		wc[k].opcode = (enum ibv_wc_opcode)u[1];
		wc[k].vendor_err = u[2];
		wc[k].byte_len = u[3];
		wc[k].qp_num = u[5];
		wc[k].src_qp = u[6];
		wc[k].wc_flags = u[7];
		/* Immediate data is in network byte order in the struct; an invalidated rkey is not. */
		if (u[7] & IBV_WC_WITH_INV)
			wc[k].invalidated_rkey = u[4];
		else
			wc[k].imm_data = htobe32(u[4]);
		wc[k].pkey_index = h[0];
		wc[k].slid = h[1];
		wc[k].sl = e[44];
		wc[k].dlid_path_bits = e[45];
	}
	if (k)
		__atomic_store_n(&c->ring[RING_CONS], cons, __ATOMIC_RELEASE);
	return k;
}

static int request_poll(struct ibv_cq *cq, int num_entries, struct ibv_wc *wc);

/* Returns how many completions it wrote, or a negative value on error (as a provider's poll_cq). */
static int poll_cq(struct ibv_cq *cq, int num_entries, struct ibv_wc *wc)
{
	struct sr_cq *c = (struct sr_cq *)cq;
	int k;

	if (!c->ring)
		return request_poll(cq, num_entries, wc);
	if (num_entries <= 0)
		return 0;
	pthread_spin_lock(&c->lock);
	k = ring_poll(c, num_entries, wc);
	if (k == 0 && __atomic_load_n(&c->ring[RING_BACKLOG], __ATOMIC_ACQUIRE)) {
		/* The daemon moves more into the ring (its answer has none), or says why it cannot. */
		k = request_poll(cq, num_entries, wc);
		if (k >= 0)
			k = ring_poll(c, num_entries, wc);
	}
	if (k != 0)
		c->empty = 0;
	else if (++c->empty >= EMPTY_POLLS_BEFORE_YIELD)
		c->empty = 0;
	pthread_spin_unlock(&c->lock);
	if (k == 0 && c->empty == 0)
		sched_yield();
	return k;
}

static int request_poll(struct ibv_cq *cq, int num_entries, struct ibv_wc *wc)
{
	struct sr_req *r = sr_req_tls();
	struct sr_ans *a = sr_ans_tls();
	int n, e;

	if (num_entries <= 0)
		return 0;
	/* An answer of up to 64 KiB holds about 200 completions. */
	if (num_entries > 128)
		num_entries = 128;
	sr_put_u64(r, "cq", cq->handle);
	sr_put_i64(r, "n", num_entries);
	e = sr_call(SR_POLL_CQ, r, a, -1);
	if (e)
		return -e;
	n = (int)sr_get_u64(a, "count", 0);
	if (n > num_entries)
		n = num_entries;
	for (int i = 0; i < n; i++) {
		char prefix[32];

		snprintf(prefix, sizeof(prefix), "wc.%d.", i);
		memset(&wc[i], 0, sizeof(wc[i]));
		sr_fill(&wc[i], sr_wc_fields, sr_wc_nfields, a, sizeof(wc[i]), prefix);
		/* Immediate data travels in network byte order in the struct; the daemon's is the value. */
		wc[i].imm_data = htobe32((uint32_t)sr_get_idx(a, "wc", (unsigned)i, "imm_data", 0));
	}
	return n;
}

void sr_cq_ops(struct ibv_context_ops *ops)
{
	ops->poll_cq = poll_cq;
	ops->req_notify_cq = req_notify_cq;
}
