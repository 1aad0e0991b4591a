/*
 * Queue pairs and the work request path: create, modify, query, destroy, and the context's
 * post_send / post_recv operations, each one request to the daemon carrying the attribute
 * structs member by member (names as in <infiniband/verbs.h>, nested members with dots).
 * SGE addresses are the program's own; the daemon finds the region by its key. Inline data
 * travels in the request (the buffer is free when post_send returns).
 *
 * A QP has work-request rings (src/preload/qp-ring.ts has the layout and the rules): a memfd
 * this library maps and passes at creation. A post the ring can take (the QP's last known state
 * takes it, an opcode the ring takes, at most one SGE or inline bytes that fit, room in the
 * queue) is written there, and the daemon is told with a doorbell it does not answer, only when
 * it has not been told already. Any other post is one request, answered after the ring's WRs.
 */
#define _GNU_SOURCE
#include <endian.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "sr.h"

struct sr_qp {
	struct ibv_qp qp; /* must stay first: the program holds a pointer to it */
	uint32_t *ring;	  /* NULL: no rings, each post is a request */
	size_t ring_bytes;
	uint32_t sq_entries, rq_entries, inline_max;
	/* WRs posted (by ring or by request) on each queue, modulo 2^32. */
	uint32_t sq_posted, rq_posted;
	/* Orders the ring's writes and the requests of one QP's posts. */
	pthread_mutex_t lock;
};

static uint32_t pow2_at_least(uint32_t n)
{
	uint32_t p = 16;

	while (p < QR_MAX_ENTRIES && p < n)
		p <<= 1;
	return p;
}

uint32_t *sr_rings_map(size_t bytes, int *fd)
{
	void *p;

	*fd = memfd_create("softrdma-qp", MFD_CLOEXEC);
	if (*fd < 0)
		return NULL;
	if (ftruncate(*fd, (off_t)bytes) < 0)
		goto fail;
	p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, *fd, 0);
	if (p == MAP_FAILED)
		goto fail;
	/* The pages are the program's (its memory, its cgroup), not the daemon's first write's. */
	memset(p, 0, bytes);
	return p;
fail:
	close(*fd);
	*fd = -1;
	return NULL;
}

#define QA(f) SR_FIELD(struct ibv_qp_attr, f)
static const struct sr_field qp_attr_fields[] = {
	QA(qp_state), QA(cur_qp_state), QA(path_mtu), QA(path_mig_state), QA(qkey), QA(rq_psn),
	QA(sq_psn), QA(dest_qp_num), QA(qp_access_flags), QA(cap.max_send_wr), QA(cap.max_recv_wr),
	QA(cap.max_send_sge), QA(cap.max_recv_sge), QA(cap.max_inline_data),
	QA(ah_attr.grh.flow_label), QA(ah_attr.grh.sgid_index), QA(ah_attr.grh.hop_limit),
	QA(ah_attr.grh.traffic_class), QA(ah_attr.dlid), QA(ah_attr.sl), QA(ah_attr.src_path_bits),
	QA(ah_attr.static_rate), QA(ah_attr.is_global), QA(ah_attr.port_num),
	QA(alt_ah_attr.grh.flow_label), QA(alt_ah_attr.grh.sgid_index), QA(alt_ah_attr.grh.hop_limit),
	QA(alt_ah_attr.grh.traffic_class), QA(alt_ah_attr.dlid), QA(alt_ah_attr.sl),
	QA(alt_ah_attr.src_path_bits), QA(alt_ah_attr.static_rate), QA(alt_ah_attr.is_global),
	QA(alt_ah_attr.port_num), QA(pkey_index), QA(alt_pkey_index), QA(en_sqd_async_notify),
	QA(sq_draining), QA(max_rd_atomic), QA(max_dest_rd_atomic), QA(min_rnr_timer), QA(port_num),
	QA(timeout), QA(retry_cnt), QA(rnr_retry), QA(alt_port_num), QA(alt_timeout), QA(rate_limit),
};

#define QC(f) SR_FIELD(struct ibv_qp_cap, f)
static const struct sr_field cap_fields[] = {
	QC(max_send_wr), QC(max_recv_wr), QC(max_send_sge), QC(max_recv_sge), QC(max_inline_data),
};

struct ibv_qp *ibv_create_qp(struct ibv_pd *pd, struct ibv_qp_init_attr *init)
{
	struct sr_req *r;
	struct sr_ans *a = sr_ans_tls();
	struct sr_qp *q;
	struct ibv_qp *qp;
	int e, fd = -1;

	/* Made first: the daemon names it (`user`) in the program's asynchronous events. */
	q = calloc(1, sizeof(*q));
	if (!q) {
		errno = ENOMEM;
		return NULL;
	}
	qp = &q->qp;
	if (init->qp_type == IBV_QPT_RC || init->qp_type == IBV_QPT_UC || init->qp_type == IBV_QPT_UD) {
		uint32_t inl = init->cap.max_inline_data;

		q->sq_entries = pow2_at_least(init->cap.max_send_wr);
		q->rq_entries = init->srq ? 0 : pow2_at_least(init->cap.max_recv_wr);
		q->inline_max = inl > QR_MAX_INLINE ? QR_MAX_INLINE : (inl + 63) & ~63u;
		q->ring_bytes = QR_HEADER + (size_t)q->sq_entries * (QR_SQ_FIELDS + q->inline_max) + (size_t)q->rq_entries * QR_RQ_SLOT;
		if (init->cap.max_send_wr <= QR_MAX_ENTRIES && init->cap.max_recv_wr <= QR_MAX_ENTRIES)
			q->ring = sr_rings_map(q->ring_bytes, &fd);
	}
	for (;;) {
		r = sr_req_tls();
		sr_put_u64(r, "pd", pd->handle);
		sr_put_u64(r, "user", (uintptr_t)qp);
		sr_put_u64(r, "srq", init->srq ? init->srq->handle : 0);
		sr_put_u64(r, "send_cq", init->send_cq ? init->send_cq->handle : 0);
		sr_put_u64(r, "recv_cq", init->recv_cq ? init->recv_cq->handle : 0);
		sr_put_u64(r, "qp_type", init->qp_type);
		sr_put_u64(r, "sq_sig_all", init->sq_sig_all ? 1 : 0);
		sr_put_fields(r, &init->cap, cap_fields, SR_COUNT(cap_fields), "cap.");
		if (q->ring) {
			sr_put_u64(r, "ring_sq", q->sq_entries);
			sr_put_u64(r, "ring_rq", q->rq_entries);
			sr_put_u64(r, "ring_inline", q->inline_max);
		}
		e = sr_call(SR_CREATE_QP, r, a, q->ring ? fd : -1);
		/* A daemon that cannot take the rings (no fd channel): the QP posts by request. */
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
	/* The caps the QP got, as libibverbs writes them back. */
	sr_fill(&init->cap, cap_fields, SR_COUNT(cap_fields), a, sizeof(init->cap), "cap.");
	pthread_mutex_init(&q->lock, NULL);
	qp->context = pd->context;
	qp->qp_context = init->qp_context;
	qp->pd = pd;
	qp->send_cq = init->send_cq;
	qp->recv_cq = init->recv_cq;
	qp->srq = init->srq;
	qp->handle = (uint32_t)sr_get_u64(a, "qp", 0);
	qp->qp_num = (uint32_t)sr_get_u64(a, "qp_num", 0);
	qp->state = IBV_QPS_RESET;
	qp->qp_type = init->qp_type;
	pthread_mutex_init(&qp->mutex, NULL);
	pthread_cond_init(&qp->cond, NULL);
	return qp;
}

int ibv_modify_qp(struct ibv_qp *qp, struct ibv_qp_attr *attr, int attr_mask)
{
	struct sr_req *r = sr_req_tls();
	struct sr_ans *a = sr_ans_tls();
	int e;

	sr_put_u64(r, "qp", qp->handle);
	sr_put_u64(r, "mask", (unsigned)attr_mask);
	sr_put_fields(r, attr, qp_attr_fields, SR_COUNT(qp_attr_fields), NULL);
	sr_put_hex(r, "ah_attr.grh.dgid", attr->ah_attr.grh.dgid.raw, 16);
	sr_put_hex(r, "alt_ah_attr.grh.dgid", attr->alt_ah_attr.grh.dgid.raw, 16);
	e = sr_call(SR_MODIFY_QP, r, a, -1);
	if (e)
		return e;
	if (attr_mask & IBV_QP_STATE)
		qp->state = attr->qp_state;
	return 0;
}

int ibv_query_qp(struct ibv_qp *qp, struct ibv_qp_attr *attr, int attr_mask, struct ibv_qp_init_attr *init)
{
	struct sr_req *r = sr_req_tls();
	struct sr_ans *a = sr_ans_tls();
	int e;

	sr_put_u64(r, "qp", qp->handle);
	sr_put_u64(r, "mask", (unsigned)attr_mask);
	e = sr_call(SR_QUERY_QP, r, a, -1);
	if (e)
		return e;
	memset(attr, 0, sizeof(*attr));
	sr_fill(attr, qp_attr_fields, SR_COUNT(qp_attr_fields), a, sizeof(*attr), NULL);
	sr_get_hex(a, "ah_attr.grh.dgid", attr->ah_attr.grh.dgid.raw, 16);
	sr_get_hex(a, "alt_ah_attr.grh.dgid", attr->alt_ah_attr.grh.dgid.raw, 16);
	if (init) {
		memset(init, 0, sizeof(*init));
		init->qp_context = qp->qp_context;
		init->send_cq = qp->send_cq;
		init->recv_cq = qp->recv_cq;
		init->srq = qp->srq;
		init->qp_type = qp->qp_type;
		init->sq_sig_all = (int)sr_get_u64(a, "init.sq_sig_all", 0);
		sr_fill(&init->cap, cap_fields, SR_COUNT(cap_fields), a, sizeof(init->cap), "init.cap.");
	}
	return 0;
}

int ibv_destroy_qp(struct ibv_qp *qp)
{
	struct sr_req *r = sr_req_tls();
	struct sr_ans *a = sr_ans_tls();
	int e;

	sr_put_u64(r, "qp", qp->handle);
	e = sr_call(SR_DESTROY_QP, r, a, -1);
	if (e)
		return e;
	{
		struct sr_qp *q = (struct sr_qp *)qp;

		if (q->ring)
			munmap(q->ring, q->ring_bytes);
		pthread_mutex_destroy(&q->lock);
		free(q);
	}
	return 0;
}

struct ibv_qp_ex *ibv_qp_to_qp_ex(struct ibv_qp *qp)
{
	/* Extended QPs (ibv_wr_*) are not offered: programs fall back to ibv_post_send. */
	return NULL;
}

static void put_sges(struct sr_req *r, unsigned i, const struct ibv_sge *sg, int n)
{
	char k[48];

	snprintf(k, sizeof(k), "wr.%u.num_sge", i);
	sr_put_i64(r, k, n);
	for (int j = 0; j < n; j++) {
		snprintf(k, sizeof(k), "wr.%u.sge.%d.addr", i, j);
		sr_put_u64(r, k, sg[j].addr);
		snprintf(k, sizeof(k), "wr.%u.sge.%d.length", i, j);
		sr_put_u64(r, k, sg[j].length);
		snprintf(k, sizeof(k), "wr.%u.sge.%d.lkey", i, j);
		sr_put_u64(r, k, sg[j].lkey);
	}
}

/* The list's index `bad` as the WR the daemon refused (or the first, when it says none). */
int sr_post_result(int e, const struct sr_ans *a, void *first, void **bad, size_t next_off)
{
	uint64_t at;
	char *w = first;

	if (!e)
		return 0;
	at = sr_get_u64(a, "bad", 0);
	while (w && at--)
		w = *(char **)(w + next_off);
	*bad = w ? w : first;
	return e;
}

int sr_ring_posted(pthread_mutex_t *lock, uint32_t *h, const char *key, uint32_t handle, int taken)
{
	if (!taken)
		return 0;
	pthread_mutex_unlock(lock);
	sr_ring_doorbell(h, key, handle);
	return 1;
}

void sr_ring_doorbell(uint32_t *h, const char *key, uint32_t handle)
{
	struct sr_req *r;

	if (__atomic_exchange_n(&h[QR_DOORBELL], 1, __ATOMIC_SEQ_CST))
		return;
	r = sr_req_tls();
	sr_put_u64(r, key, handle);
	sr_notify(SR_DOORBELL, r);
}

#define QR_SEND_FLAGS (IBV_SEND_FENCE | IBV_SEND_SIGNALED | IBV_SEND_SOLICITED | IBV_SEND_INLINE)

/* Writes the list into the send ring if the ring can take all of it (1), else nothing (0). Lock held. */
static int ring_post_send(struct sr_qp *q, struct ibv_send_wr *wr)
{
	uint32_t *h = q->ring;
	uint32_t ops = h[QR_SQ_OPCODES], cap = h[QR_SQ_CAP], prod, n = 0;
	size_t slot = QR_SQ_FIELDS + q->inline_max;

	if (__atomic_load_n(&h[QR_STATE], __ATOMIC_ACQUIRE) != IBV_QPS_RTS + 1)
		return 0;
	for (struct ibv_send_wr *w = wr; w; w = w->next, n++) {
		if ((unsigned)w->opcode >= 32 || !(ops & (1u << w->opcode)) || (w->send_flags & ~QR_SEND_FLAGS))
			return 0;
		if (w->send_flags & IBV_SEND_INLINE) {
			size_t len = 0;

			if (w->num_sge < 0)
				return 0;
			for (int j = 0; j < w->num_sge; j++)
				len += w->sg_list[j].length;
			if (len > q->inline_max)
				return 0;
		} else if (w->num_sge < 0 || w->num_sge > 1) {
			return 0;
		}
		if (q->qp.qp_type == IBV_QPT_UD && !w->wr.ud.ah)
			return 0;
	}
	if ((uint32_t)(q->sq_posted - __atomic_load_n(&h[QR_SQ_RETIRED], __ATOMIC_ACQUIRE)) + n > cap)
		return 0;
	prod = h[QR_SQ_PROD];
	for (struct ibv_send_wr *w = wr; w; w = w->next, prod++) {
		unsigned char *e = (unsigned char *)h + QR_HEADER + (size_t)(prod & (q->sq_entries - 1)) * slot;
		uint32_t u[4] = { (uint32_t)w->opcode, (uint32_t)w->send_flags, be32toh(w->imm_data), 0 };

		memset(e, 0, QR_SQ_FIELDS);
		memcpy(e, &w->wr_id, 8);
		if (w->send_flags & IBV_SEND_INLINE) {
			uint32_t len = 0;

			for (int j = 0; j < w->num_sge; j++) {
				memcpy(e + QR_SQ_FIELDS + len, (void *)(uintptr_t)w->sg_list[j].addr, w->sg_list[j].length);
				len += w->sg_list[j].length;
			}
			memcpy(e + 80, &len, 4);
		} else if (w->num_sge == 1) {
			u[3] = 1;
			memcpy(e + 24, &w->sg_list[0].addr, 8);
			memcpy(e + 32, &w->sg_list[0].length, 4);
			memcpy(e + 36, &w->sg_list[0].lkey, 4);
		}
		memcpy(e + 8, u, sizeof(u));
		if (q->qp.qp_type == IBV_QPT_UD) {
			memcpy(e + 52, &w->wr.ud.ah->handle, 4);
			memcpy(e + 72, &w->wr.ud.remote_qpn, 4);
			memcpy(e + 76, &w->wr.ud.remote_qkey, 4);
		} else if (w->opcode == IBV_WR_ATOMIC_CMP_AND_SWP || w->opcode == IBV_WR_ATOMIC_FETCH_AND_ADD) {
			memcpy(e + 40, &w->wr.atomic.remote_addr, 8);
			memcpy(e + 48, &w->wr.atomic.rkey, 4);
			memcpy(e + 56, &w->wr.atomic.compare_add, 8);
			memcpy(e + 64, &w->wr.atomic.swap, 8);
		} else {
			memcpy(e + 40, &w->wr.rdma.remote_addr, 8);
			memcpy(e + 48, &w->wr.rdma.rkey, 4);
		}
	}
	/* Sequentially consistent, as the doorbell's exchange after it: the daemon clears the doorbell, then reads this. */
	__atomic_store_n(&h[QR_SQ_PROD], prod, __ATOMIC_SEQ_CST);
	q->sq_posted += n;
	return 1;
}

/* WRs of a post request the daemon took: all, or those before the one it names. */
static uint32_t request_posted(int e, const struct sr_ans *a, unsigned count)
{
	if (!e)
		return count;
	return sr_get(a, "bad") ? (uint32_t)sr_get_u64(a, "bad", 0) : 0;
}

static int post_send(struct ibv_qp *qp, struct ibv_send_wr *wr, struct ibv_send_wr **bad_wr)
{
	struct sr_qp *q = (struct sr_qp *)qp;
	struct sr_req *r;
	struct sr_ans *a;
	unsigned i = 0;
	char k[48];
	int e;

	if (q->ring) {
		pthread_mutex_lock(&q->lock);
		if (sr_ring_posted(&q->lock, q->ring, "qp", q->qp.handle, ring_post_send(q, wr)))
			return 0;
	}
	r = sr_req_tls();
	a = sr_ans_tls();
	sr_put_u64(r, "qp", qp->handle);
	for (struct ibv_send_wr *w = wr; w; w = w->next, i++) {
#define P(key, v) (snprintf(k, sizeof(k), "wr.%u." key, i), sr_put_u64(r, k, (v)))
		P("wr_id", w->wr_id);
		P("opcode", w->opcode);
		P("send_flags", w->send_flags);
		P("imm_data", be32toh(w->imm_data));
		P("invalidate_rkey", w->invalidate_rkey);
		switch (w->opcode) {
		case IBV_WR_RDMA_WRITE:
		case IBV_WR_RDMA_WRITE_WITH_IMM:
		case IBV_WR_RDMA_READ:
			P("rdma.remote_addr", w->wr.rdma.remote_addr);
			P("rdma.rkey", w->wr.rdma.rkey);
			break;
		case IBV_WR_ATOMIC_CMP_AND_SWP:
		case IBV_WR_ATOMIC_FETCH_AND_ADD:
			P("atomic.remote_addr", w->wr.atomic.remote_addr);
			P("atomic.compare_add", w->wr.atomic.compare_add);
			P("atomic.swap", w->wr.atomic.swap);
			P("atomic.rkey", w->wr.atomic.rkey);
			break;
		default:
			break;
		}
		if (qp->qp_type == IBV_QPT_UD) {
			P("ud.ah", w->wr.ud.ah ? w->wr.ud.ah->handle : 0);
			P("ud.remote_qpn", w->wr.ud.remote_qpn);
			P("ud.remote_qkey", w->wr.ud.remote_qkey);
		}
#undef P
		if ((w->send_flags & IBV_SEND_INLINE) && w->num_sge > 0) {
			/* The bytes themselves: they need not be registered. */
			unsigned char buf[1024];
			size_t len = 0;

			for (int j = 0; j < w->num_sge; j++) {
				if (w->sg_list[j].length > sizeof(buf) - len) {
					*bad_wr = w;
					if (q->ring) {
						/* The WRs before it were posted by nobody: this request is not sent. */
						pthread_mutex_unlock(&q->lock);
					}
					return EINVAL;
				}
				memcpy(buf + len, (void *)(uintptr_t)w->sg_list[j].addr, w->sg_list[j].length);
				len += w->sg_list[j].length;
			}
			snprintf(k, sizeof(k), "wr.%u.inline", i);
			sr_put_hex(r, k, buf, len);
		} else {
			put_sges(r, i, w->sg_list, w->num_sge);
		}
	}
	sr_put_u64(r, "count", i);
	e = sr_call(SR_POST_SEND, r, a, -1);
	if (q->ring) {
		q->sq_posted += request_posted(e, a, i);
		pthread_mutex_unlock(&q->lock);
	}
	return sr_post_result(e, a, wr, (void **)bad_wr, offsetof(struct ibv_send_wr, next));
}

void sr_put_recv_wrs(struct sr_req *r, const struct ibv_recv_wr *wr)
{
	unsigned i = 0;
	char k[48];

	for (const struct ibv_recv_wr *w = wr; w; w = w->next, i++) {
		snprintf(k, sizeof(k), "wr.%u.wr_id", i);
		sr_put_u64(r, k, w->wr_id);
		put_sges(r, i, w->sg_list, w->num_sge);
	}
	sr_put_u64(r, "count", i);
}

int sr_ring_recv(uint32_t *h, unsigned char *slots, uint32_t entries, uint32_t *posted, struct ibv_recv_wr *wr)
{
	uint32_t prod, n = 0;

	for (struct ibv_recv_wr *w = wr; w; w = w->next, n++)
		if (w->num_sge < 0 || w->num_sge > 1)
			return 0;
	if ((uint32_t)(*posted - __atomic_load_n(&h[QR_RQ_RETIRED], __ATOMIC_ACQUIRE)) + n > h[QR_RQ_CAP])
		return 0;
	prod = h[QR_RQ_PROD];
	for (struct ibv_recv_wr *w = wr; w; w = w->next, prod++) {
		unsigned char *e = slots + (size_t)(prod & (entries - 1)) * QR_RQ_SLOT;
		uint32_t nsge = (uint32_t)w->num_sge;

		memset(e, 0, QR_RQ_SLOT);
		memcpy(e, &w->wr_id, 8);
		memcpy(e + 8, &nsge, 4);
		if (nsge) {
			memcpy(e + 12, &w->sg_list[0].lkey, 4);
			memcpy(e + 16, &w->sg_list[0].addr, 8);
			memcpy(e + 24, &w->sg_list[0].length, 4);
		}
	}
	__atomic_store_n(&h[QR_RQ_PROD], prod, __ATOMIC_SEQ_CST);
	*posted += n;
	return 1;
}

/* As ring_post_send, for the receive ring: in Init, RTR or RTS. Lock held. */
static int ring_post_recv(struct sr_qp *q, struct ibv_recv_wr *wr)
{
	uint32_t *h = q->ring;
	uint32_t state = __atomic_load_n(&h[QR_STATE], __ATOMIC_ACQUIRE);

	if (!q->rq_entries || (state != IBV_QPS_INIT + 1 && state != IBV_QPS_RTR + 1 && state != IBV_QPS_RTS + 1))
		return 0;
	return sr_ring_recv(h, (unsigned char *)h + QR_HEADER + (size_t)q->sq_entries * (QR_SQ_FIELDS + q->inline_max), q->rq_entries,
			    &q->rq_posted, wr);
}

static int post_recv(struct ibv_qp *qp, struct ibv_recv_wr *wr, struct ibv_recv_wr **bad_wr)
{
	struct sr_qp *q = (struct sr_qp *)qp;
	struct sr_req *r;
	struct sr_ans *a;
	unsigned n = 0;
	int e;

	if (q->ring) {
		pthread_mutex_lock(&q->lock);
		if (sr_ring_posted(&q->lock, q->ring, "qp", q->qp.handle, ring_post_recv(q, wr)))
			return 0;
	}
	r = sr_req_tls();
	a = sr_ans_tls();
	sr_put_u64(r, "qp", qp->handle);
	sr_put_recv_wrs(r, wr);
	for (struct ibv_recv_wr *w = wr; w; w = w->next)
		n++;
	e = sr_call(SR_POST_RECV, r, a, -1);
	if (q->ring) {
		q->rq_posted += request_posted(e, a, n);
		pthread_mutex_unlock(&q->lock);
	}
	return sr_post_result(e, a, wr, (void **)bad_wr, offsetof(struct ibv_recv_wr, next));
}

void sr_qp_ops(struct ibv_context_ops *ops)
{
	ops->post_send = post_send;
	ops->post_recv = post_recv;
}
