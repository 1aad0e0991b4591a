/* Address handles, SRQs and multicast attachment, each one request to the daemon. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "sr.h"

#define AA(f) SR_FIELD(struct ibv_ah_attr, f)
static const struct sr_field ah_fields[] = {
	AA(grh.flow_label), AA(grh.sgid_index), AA(grh.hop_limit), AA(grh.traffic_class), AA(dlid),
	AA(sl), AA(src_path_bits), AA(static_rate), AA(is_global), AA(port_num),
};

void sr_put_ah_attr(struct sr_req *r, const struct ibv_ah_attr *ah, const char *prefix)
{
	char k[64];

	sr_put_fields(r, ah, ah_fields, SR_COUNT(ah_fields), prefix);
	snprintf(k, sizeof(k), "%sgrh.dgid", prefix);
	sr_put_hex(r, k, ah->grh.dgid.raw, 16);
}

void sr_get_ah_attr(const struct sr_ans *a, struct ibv_ah_attr *ah, const char *prefix)
{
	char k[64];

	memset(ah, 0, sizeof(*ah));
	sr_fill(ah, ah_fields, SR_COUNT(ah_fields), a, sizeof(*ah), prefix);
	snprintf(k, sizeof(k), "%sgrh.dgid", prefix);
	sr_get_hex(a, k, ah->grh.dgid.raw, 16);
}

struct ibv_ah *ibv_create_ah(struct ibv_pd *pd, struct ibv_ah_attr *attr)
{
	struct sr_req *r = sr_req_tls();
	struct sr_ans *a = sr_ans_tls();
	struct ibv_ah *ah;
	int e;

	sr_put_u64(r, "pd", pd->handle);
	sr_put_ah_attr(r, attr, "ah_attr.");
	e = sr_call(SR_CREATE_AH, r, a, -1);
	if (e) {
		errno = e;
		return NULL;
	}
	ah = calloc(1, sizeof(*ah));
	if (!ah) {
		errno = ENOMEM;
		return NULL;
	}
	ah->context = pd->context;
	ah->pd = pd;
	ah->handle = (uint32_t)sr_get_u64(a, "ah", 0);
	return ah;
}

int ibv_destroy_ah(struct ibv_ah *ah)
{
	struct sr_req *r = sr_req_tls();
	struct sr_ans *a = sr_ans_tls();
	int e;

	sr_put_u64(r, "ah", ah->handle);
	e = sr_call(SR_DESTROY_AH, r, a, -1);
	if (e)
		return e;
	free(ah);
	return 0;
}

int ibv_init_ah_from_wc(struct ibv_context *context, uint8_t port_num, struct ibv_wc *wc,
			struct ibv_grh *grh, struct ibv_ah_attr *ah_attr)
{
	struct sr_req *r = sr_req_tls();
	struct sr_ans *a = sr_ans_tls();
	int e;

	sr_put_u64(r, "ctx", sr_ctx_handle(context));
	sr_put_u64(r, "port", port_num);
	sr_put_fields(r, wc, sr_wc_fields, sr_wc_nfields, "wc.");
	if (grh)
		sr_put_hex(r, "grh", grh, sizeof(*grh));
	e = sr_call(SR_INIT_AH_FROM_WC, r, a, -1);
	if (e) {
		errno = e;
		return -1;
	}
	sr_get_ah_attr(a, ah_attr, "ah_attr.");
	return 0;
}

struct ibv_ah *ibv_create_ah_from_wc(struct ibv_pd *pd, struct ibv_wc *wc, struct ibv_grh *grh, uint8_t port_num)
{
	struct ibv_ah_attr attr;

	if (ibv_init_ah_from_wc(pd->context, port_num, wc, grh, &attr))
		return NULL;
	return ibv_create_ah(pd, &attr);
}

static int mcast(struct ibv_qp *qp, const union ibv_gid *gid, uint16_t lid, int detach)
{
	struct sr_req *r = sr_req_tls();
	struct sr_ans *a = sr_ans_tls();

	sr_put_u64(r, "qp", qp->handle);
	sr_put_hex(r, "gid", gid->raw, 16);
	sr_put_u64(r, "lid", lid);
	sr_put_u64(r, "detach", detach ? 1 : 0);
	return sr_call(SR_ATTACH_MCAST, r, a, -1);
}

int ibv_attach_mcast(struct ibv_qp *qp, const union ibv_gid *gid, uint16_t lid)
{
	return mcast(qp, gid, lid, 0);
}

int ibv_detach_mcast(struct ibv_qp *qp, const union ibv_gid *gid, uint16_t lid)
{
	return mcast(qp, gid, lid, 1);
}

#define SA(f) SR_FIELD(struct ibv_srq_attr, f)
static const struct sr_field srq_fields[] = { SA(max_wr), SA(max_sge), SA(srq_limit) };

/*
 * An S-RQ has a receive ring as a QP has (src/preload/qp-ring.ts): `ibv_post_srq_recv` writes
 * there and rings the doorbell, unless a WR has more than one SGE or the queue has no room.
 */
struct sr_srq {
	struct ibv_srq srq; /* must stay first: the program holds a pointer to it */
	uint32_t *ring;	    /* NULL: each post is a request */
	size_t ring_bytes;
	uint32_t entries, posted;
	pthread_mutex_t lock;
};

struct ibv_srq *ibv_create_srq(struct ibv_pd *pd, struct ibv_srq_init_attr *init)
{
	struct sr_req *r;
	struct sr_ans *a = sr_ans_tls();
	struct sr_srq *q;
	struct ibv_srq *srq;
	int e, fd = -1;

	/* Made first: the daemon names it (`user`) in the program's asynchronous events. */
	q = calloc(1, sizeof(*q));
	if (!q) {
		errno = ENOMEM;
		return NULL;
	}
	srq = &q->srq;
	if (init->attr.max_wr <= QR_MAX_ENTRIES) {
		q->entries = 16;
		while (q->entries < init->attr.max_wr)
			q->entries <<= 1;
		q->ring_bytes = QR_HEADER + (size_t)q->entries * QR_RQ_SLOT;
		q->ring = sr_rings_map(q->ring_bytes, &fd);
	}
	for (;;) {
		r = sr_req_tls();
		sr_put_u64(r, "pd", pd->handle);
		sr_put_u64(r, "user", (uintptr_t)srq);
		sr_put_fields(r, &init->attr, srq_fields, SR_COUNT(srq_fields), "attr.");
		if (q->ring)
			sr_put_u64(r, "ring_rq", q->entries);
		e = sr_call(SR_CREATE_SRQ, r, a, q->ring ? fd : -1);
		/* A daemon that cannot take the ring (no fd channel): the S-RQ posts by request. */
		if (e == EOPNOTSUPP && q->ring) {
			munmap(q->ring, q->ring_bytes);
			q->ring = NULL;
			close(fd);
			fd = -1;
			continue;
		}
		break;
	}
	if (fd >= 0)
		close(fd);
	if (q->ring && (e || !sr_get_u64(a, "ring", 0))) {
		munmap(q->ring, q->ring_bytes);
		q->ring = NULL;
	}
	if (e) {
		free(q);
		errno = e;
		return NULL;
	}
	sr_fill(&init->attr, srq_fields, SR_COUNT(srq_fields), a, sizeof(init->attr), "attr.");
	pthread_mutex_init(&q->lock, NULL);
	srq->context = pd->context;
	srq->srq_context = init->srq_context;
	srq->pd = pd;
	srq->handle = (uint32_t)sr_get_u64(a, "srq", 0);
	pthread_mutex_init(&srq->mutex, NULL);
	pthread_cond_init(&srq->cond, NULL);
	return srq;
}

int ibv_modify_srq(struct ibv_srq *srq, struct ibv_srq_attr *attr, int mask)
{
	struct sr_req *r = sr_req_tls();
	struct sr_ans *a = sr_ans_tls();

	sr_put_u64(r, "srq", srq->handle);
	sr_put_u64(r, "mask", (unsigned)mask);
	sr_put_fields(r, attr, srq_fields, SR_COUNT(srq_fields), "attr.");
	return sr_call(SR_MODIFY_SRQ, r, a, -1);
}

int ibv_query_srq(struct ibv_srq *srq, struct ibv_srq_attr *attr)
{
	struct sr_req *r = sr_req_tls();
	struct sr_ans *a = sr_ans_tls();
	int e;

	sr_put_u64(r, "srq", srq->handle);
	e = sr_call(SR_QUERY_SRQ, r, a, -1);
	if (e)
		return e;
	memset(attr, 0, sizeof(*attr));
	sr_fill(attr, srq_fields, SR_COUNT(srq_fields), a, sizeof(*attr), "attr.");
	return 0;
}

int ibv_destroy_srq(struct ibv_srq *srq)
{
	struct sr_req *r = sr_req_tls();
	struct sr_ans *a = sr_ans_tls();
	int e;

	sr_put_u64(r, "srq", srq->handle);
	e = sr_call(SR_DESTROY_SRQ, r, a, -1);
	if (e)
		return e;
	{
		struct sr_srq *q = (struct sr_srq *)srq;

		if (q->ring)
			munmap(q->ring, q->ring_bytes);
		pthread_mutex_destroy(&q->lock);
		free(q);
	}
	return 0;
}

static int post_srq_recv(struct ibv_srq *srq, struct ibv_recv_wr *wr, struct ibv_recv_wr **bad_wr)
{
	struct sr_srq *q = (struct sr_srq *)srq;
	struct sr_req *r;
	struct sr_ans *a;
	unsigned n = 0;
	int e;

	if (q->ring) {
		pthread_mutex_lock(&q->lock);
		if (sr_ring_posted(&q->lock, q->ring, "srq", srq->handle,
				   sr_ring_recv(q->ring, (unsigned char *)q->ring + QR_HEADER, q->entries, &q->posted, wr)))
			return 0;
	}
	r = sr_req_tls();
	a = sr_ans_tls();
	sr_put_u64(r, "srq", srq->handle);
	sr_put_recv_wrs(r, wr);
	for (struct ibv_recv_wr *w = wr; w; w = w->next)
		n++;
	e = sr_call(SR_POST_SRQ_RECV, r, a, -1);
	if (q->ring) {
		/* The WRs the daemon took: all, or those before the one it names. */
		q->posted += !e ? n : sr_get(a, "bad") ? (uint32_t)sr_get_u64(a, "bad", 0) : 0;
		pthread_mutex_unlock(&q->lock);
	}
	return sr_post_result(e, a, wr, (void **)bad_wr, offsetof(struct ibv_recv_wr, next));
}

void sr_srq_ops(struct ibv_context_ops *ops)
{
	ops->post_srq_recv = post_srq_recv;
}

/*
 * Asynchronous events: `async_fd` is the program's end of a socket pair the daemon writes one
 * byte to per event (so `poll()` and O_NONBLOCK behave as on the kernel's fd); the event itself
 * is one request. Without the fd (the daemon could not pass one) the call says so and fails.
 */
int ibv_get_async_event(struct ibv_context *context, struct ibv_async_event *event)
{
	struct sr_req *r = sr_req_tls();
	struct sr_ans *a = sr_ans_tls();
	char b;
	ssize_t n;
	int e;

	if (!context || !event) {
		errno = EINVAL;
		return -1;
	}
	if (context->async_fd < 0) {
		sr_unsupported("ibv_get_async_event");
		errno = EOPNOTSUPP;
		return -1;
	}
	for (;;) {
		do
			n = read(context->async_fd, &b, 1);
		while (n < 0 && errno == EINTR);
		if (n == 0) {
			errno = EIO;
			return -1;
		}
		if (n < 0)
			return -1; /* errno: EAGAIN on a non-blocking fd */
		sr_put_u64(r, "ctx", sr_ctx_handle(context));
		e = sr_call(SR_GET_ASYNC_EVENT, r, a, -1);
		if (e == EAGAIN)
			continue; /* its object went before the program asked: the next one */
		if (e) {
			errno = e;
			return -1;
		}
		break;
	}
	memset(event, 0, sizeof(*event));
	event->event_type = (enum ibv_event_type)sr_get_u64(a, "event_type", 0);
	if (sr_get(a, "qp"))
		event->element.qp = (struct ibv_qp *)(uintptr_t)sr_get_u64(a, "qp", 0);
	else if (sr_get(a, "cq"))
		event->element.cq = (struct ibv_cq *)(uintptr_t)sr_get_u64(a, "cq", 0);
	else if (sr_get(a, "srq"))
		event->element.srq = (struct ibv_srq *)(uintptr_t)sr_get_u64(a, "srq", 0);
	else
		event->element.port_num = (int)sr_get_u64(a, "port", 0);
	return 0;
}

/* The daemon acknowledged the event when it took it (docs/preload.md): nothing to count here. */
void ibv_ack_async_event(struct ibv_async_event *event)
{
}
