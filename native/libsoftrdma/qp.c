/*
 * Queue pairs and the work request path: create, modify, query, destroy, and the context's
 * post_send / post_recv operations, each one request to the daemon carrying the attribute
 * structs member by member (names as in <infiniband/verbs.h>, nested members with dots).
 * SGE addresses are the program's own; the daemon finds the region by its key. Inline data
 * travels in the request (the buffer is free when post_send returns).
 */
#define _GNU_SOURCE
#include <endian.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sr.h"

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
	struct sr_req *r = sr_req_tls();
	struct sr_ans *a = sr_ans_tls();
	struct ibv_qp *qp;
	int e;

	/* Made first: the daemon names it (`user`) in the program's asynchronous events. */
	qp = calloc(1, sizeof(*qp));
	if (!qp) {
		errno = ENOMEM;
		return NULL;
	}
	sr_put_u64(r, "pd", pd->handle);
	sr_put_u64(r, "user", (uintptr_t)qp);
	sr_put_u64(r, "srq", init->srq ? init->srq->handle : 0);
	sr_put_u64(r, "send_cq", init->send_cq ? init->send_cq->handle : 0);
	sr_put_u64(r, "recv_cq", init->recv_cq ? init->recv_cq->handle : 0);
	sr_put_u64(r, "qp_type", init->qp_type);
	sr_put_u64(r, "sq_sig_all", init->sq_sig_all ? 1 : 0);
	sr_put_fields(r, &init->cap, cap_fields, SR_COUNT(cap_fields), "cap.");
	e = sr_call(SR_CREATE_QP, r, a, -1);
	if (e) {
		free(qp);
		errno = e;
		return NULL;
	}
	/* The caps the QP got, as libibverbs writes them back. */
	sr_fill(&init->cap, cap_fields, SR_COUNT(cap_fields), a, sizeof(init->cap), "cap.");
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
	free(qp);
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

static int post_send(struct ibv_qp *qp, struct ibv_send_wr *wr, struct ibv_send_wr **bad_wr)
{
	struct sr_req *r = sr_req_tls();
	struct sr_ans *a = sr_ans_tls();
	unsigned i = 0;
	char k[48];
	int e;

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

static int post_recv(struct ibv_qp *qp, struct ibv_recv_wr *wr, struct ibv_recv_wr **bad_wr)
{
	struct sr_req *r = sr_req_tls();
	struct sr_ans *a = sr_ans_tls();
	int e;

	sr_put_u64(r, "qp", qp->handle);
	sr_put_recv_wrs(r, wr);
	e = sr_call(SR_POST_RECV, r, a, -1);
	return sr_post_result(e, a, wr, (void **)bad_wr, offsetof(struct ibv_recv_wr, next));
}

void sr_qp_ops(struct ibv_context_ops *ops)
{
	ops->post_send = post_send;
	ops->post_recv = post_recv;
}
