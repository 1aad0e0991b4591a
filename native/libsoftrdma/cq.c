/*
 * Completion channels and CQs. A channel's fd is a socket the daemon holds the other end of:
 * for each completion event it writes the `struct ibv_cq *` the CQ was created with (8 bytes),
 * so `ibv_get_cq_event` is a read and `poll()` on `channel->fd` works. Polling is one request.
 */
#define _GNU_SOURCE
#include <endian.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

struct ibv_cq *ibv_create_cq(struct ibv_context *context, int cqe, void *cq_context,
			     struct ibv_comp_channel *channel, int comp_vector)
{
	struct sr_req *r = sr_req_tls();
	struct sr_ans *a = sr_ans_tls();
	struct ibv_cq *cq = calloc(1, sizeof(*cq));
	int e;

	if (!cq) {
		errno = ENOMEM;
		return NULL;
	}
	sr_put_u64(r, "ctx", sr_ctx_handle(context));
	sr_put_i64(r, "cqe", cqe);
	sr_put_u64(r, "channel", channel ? ((struct sr_channel *)channel)->handle : 0);
	sr_put_i64(r, "comp_vector", comp_vector);
	sr_put_u64(r, "user", (uintptr_t)cq);
	e = sr_call(SR_CREATE_CQ, r, a, -1);
	if (e) {
		free(cq);
		errno = e;
		return NULL;
	}
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
	free(cq);
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

/* Returns how many completions it wrote, or a negative value on error (as a provider's poll_cq). */
static int poll_cq(struct ibv_cq *cq, int num_entries, struct ibv_wc *wc)
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
