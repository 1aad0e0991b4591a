/*
 * librdmacm's calls (<rdma/rdma_cma.h>), forwarded to the daemon, which answers from the
 * rdma_cm face (src/preload/cm.ts). Preloaded ahead of librdmacm, these definitions replace
 * the calls that would talk to the kernel's rdma_cm device; librdmacm keeps what needs no
 * kernel (rdma_event_str, rdma_getaddrinfo, the address accessors).
 *
 * - An event channel's fd is one end of a socket pair the daemon writes one byte to per queued
 *   event: `rdma_get_cm_event` reads a byte (blocking or not, as the program set the fd), then
 *   fetches the event; `poll()` on `channel->fd` works as with librdmacm.
 * - An id mirrors the daemon's: every answer carries its addresses and device, from which the
 *   id's `route.addr` and `verbs` (this library's context of that device, one per device as
 *   librdmacm opens each device once) are set.
 * - `rdma_create_qp` makes the QP with `ibv_create_qp` (and the CQs librdmacm makes when the
 *   program gives none) and asks the daemon to attach it to the id.
 * - Calls softrdma does not carry print one line naming the call and fail with EOPNOTSUPP.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <rdma/rdma_cma.h>

#include "sr.h"

#define SR_PRIVATE_DATA 256

struct sr_cm_channel {
	struct rdma_event_channel ch;
	uint32_t handle;
};

struct sr_cm_id {
	struct rdma_cm_id id;
	uint32_t handle;
	/* CQs (and channels) made by rdma_create_qp, destroyed with the QP. */
	int own_send_cq, own_recv_cq;
	struct sr_cm_id *next;
};

struct sr_cm_event {
	struct rdma_cm_event ev;
	uint32_t handle;
	uint8_t private_data[SR_PRIVATE_DATA];
};

/* Every id of this process, by handle (CONNECT_REQUEST events name the listener's). */
static pthread_mutex_t ids_lock = PTHREAD_MUTEX_INITIALIZER;
static struct sr_cm_id *ids;

static struct sr_cm_id *id_of(struct rdma_cm_id *id)
{
	return (struct sr_cm_id *)id;
}

static uint32_t channel_handle(struct rdma_event_channel *ch)
{
	return ch ? ((struct sr_cm_channel *)ch)->handle : 0;
}

static struct sr_cm_id *find_id(uint32_t handle)
{
	struct sr_cm_id *i;

	pthread_mutex_lock(&ids_lock);
	for (i = ids; i && i->handle != handle; i = i->next)
		;
	pthread_mutex_unlock(&ids_lock);
	return i;
}

static struct sr_cm_id *new_id(uint32_t handle, struct rdma_event_channel *ch, void *context, enum rdma_port_space ps)
{
	struct sr_cm_id *i = calloc(1, sizeof(*i));

	if (!i)
		return NULL;
	i->handle = handle;
	i->id.channel = ch;
	i->id.context = context;
	i->id.ps = ps;
	i->id.port_num = 1;
	/* As librdmacm's ucma_get_qp_type. */
	i->id.qp_type = (ps == RDMA_PS_UDP || ps == RDMA_PS_IPOIB) ? IBV_QPT_UD : IBV_QPT_RC;
	pthread_mutex_lock(&ids_lock);
	i->next = ids;
	ids = i;
	pthread_mutex_unlock(&ids_lock);
	return i;
}

static void drop_id(struct sr_cm_id *i)
{
	struct sr_cm_id **p;

	pthread_mutex_lock(&ids_lock);
	for (p = &ids; *p && *p != i; p = &(*p)->next)
		;
	if (*p)
		*p = i->next;
	pthread_mutex_unlock(&ids_lock);
	free(i);
}

/* This process's context of the device named `name` (opened once, as librdmacm does). */
#define SR_MAX_DEVICES 8
static pthread_mutex_t ctx_lock = PTHREAD_MUTEX_INITIALIZER;
static struct {
	char name[IBV_SYSFS_NAME_MAX];
	struct ibv_context *ctx;
	struct ibv_pd *pd;
} ctxs[SR_MAX_DEVICES];

static struct ibv_context *context_named(const char *name)
{
	struct ibv_context *c = NULL;
	struct ibv_device **list;
	int i, n = 0;

	pthread_mutex_lock(&ctx_lock);
	for (i = 0; i < SR_MAX_DEVICES && ctxs[i].ctx; i++)
		if (!strcmp(ctxs[i].name, name)) {
			c = ctxs[i].ctx;
			goto out;
		}
	if (i == SR_MAX_DEVICES)
		goto out;
	list = ibv_get_device_list(&n);
	for (int d = 0; list && d < n; d++)
		if (!strcmp(ibv_get_device_name(list[d]), name)) {
			c = ibv_open_device(list[d]);
			break;
		}
	/* The list is ours and its devices outlive it; a context keeps its device. */
	if (c) {
		snprintf(ctxs[i].name, sizeof(ctxs[i].name), "%s", name);
		ctxs[i].ctx = c;
	}
out:
	pthread_mutex_unlock(&ctx_lock);
	return c;
}

/* The context's default PD, librdmacm's for `rdma_create_qp` without one. */
static struct ibv_pd *default_pd(struct ibv_context *c)
{
	struct ibv_pd *pd = NULL;

	pthread_mutex_lock(&ctx_lock);
	for (int i = 0; i < SR_MAX_DEVICES && ctxs[i].ctx; i++)
		if (ctxs[i].ctx == c) {
			if (!ctxs[i].pd)
				ctxs[i].pd = ibv_alloc_pd(c);
			pd = ctxs[i].pd;
		}
	pthread_mutex_unlock(&ctx_lock);
	return pd;
}

static int fail(int e)
{
	errno = e;
	return -1;
}

/* An address as text and port; -1 for a family other than IPv4/IPv6. */
static int put_sockaddr(struct sr_req *r, const char *prefix, const struct sockaddr *sa)
{
	char key[32], text[INET6_ADDRSTRLEN];
	unsigned port;

	if (sa->sa_family == AF_INET) {
		const struct sockaddr_in *s = (const void *)sa;
		inet_ntop(AF_INET, &s->sin_addr, text, sizeof(text));
		port = ntohs(s->sin_port);
	} else if (sa->sa_family == AF_INET6) {
		const struct sockaddr_in6 *s = (const void *)sa;
		inet_ntop(AF_INET6, &s->sin6_addr, text, sizeof(text));
		port = ntohs(s->sin6_port);
	} else {
		return -1;
	}
	snprintf(key, sizeof(key), "%saddr", prefix);
	sr_put_str(r, key, text);
	snprintf(key, sizeof(key), "%sport", prefix);
	sr_put_u64(r, key, port);
	return 0;
}

static void get_sockaddr(const struct sr_ans *a, const char *prefix, struct sockaddr_storage *out)
{
	char key[32], buf[INET6_ADDRSTRLEN];
	const char *text;
	unsigned port;

	snprintf(key, sizeof(key), "%saddr", prefix);
	text = sr_get(a, key);
	if (!text)
		return;
	snprintf(buf, sizeof(buf), "%.*s", (int)strcspn(text, "\n"), text);
	text = buf;
	snprintf(key, sizeof(key), "%sport", prefix);
	port = (unsigned)sr_get_u64(a, key, 0);
	memset(out, 0, sizeof(*out));
	if (strchr(text, ':')) {
		struct sockaddr_in6 *s = (void *)out;
		s->sin6_family = AF_INET6;
		s->sin6_port = htons(port);
		inet_pton(AF_INET6, text, &s->sin6_addr);
	} else {
		struct sockaddr_in *s = (void *)out;
		s->sin_family = AF_INET;
		s->sin_port = htons(port);
		inet_pton(AF_INET, text, &s->sin_addr);
	}
}

/*
 * The id's addresses from an answer, and its device: the device name is copied out first,
 * because opening the context makes a request of its own (reusing this thread's answer).
 */
static void update_id(struct sr_cm_id *i, const struct sr_ans *a)
{
	char dev[IBV_SYSFS_NAME_MAX] = "";
	const char *d = sr_get(a, "device");

	get_sockaddr(a, "src.", &i->id.route.addr.src_storage);
	get_sockaddr(a, "dst.", &i->id.route.addr.dst_storage);
	if (d)
		snprintf(dev, sizeof(dev), "%.*s", (int)strcspn(d, "\n"), d);
	if (dev[0] && !i->id.verbs)
		i->id.verbs = context_named(dev);
}

/* One call on an id whose answer carries the id's state: 0, or -1 with errno. */
static int id_call(enum sr_op op, struct sr_cm_id *i, struct sr_req *r)
{
	struct sr_ans *a = sr_ans_tls();
	int e = sr_call(op, r, a, -1);

	update_id(i, a);
	return e ? fail(e) : 0;
}

struct rdma_event_channel *rdma_create_event_channel(void)
{
	struct sr_req *r = sr_req_tls();
	struct sr_ans *a = sr_ans_tls();
	struct sr_cm_channel *c;
	int e = sr_call(SR_CM_CREATE_CHANNEL, r, a, -1);

	if (!e && a->fd < 0)
		e = EPROTO;
	if (e) {
		if (a->fd >= 0)
			close(a->fd);
		errno = e;
		return NULL;
	}
	c = calloc(1, sizeof(*c));
	if (!c) {
		close(a->fd);
		errno = ENOMEM;
		return NULL;
	}
	c->ch.fd = a->fd;
	c->handle = (uint32_t)sr_get_u64(a, "channel", 0);
	return &c->ch;
}

void rdma_destroy_event_channel(struct rdma_event_channel *channel)
{
	struct sr_req *r = sr_req_tls();
	struct sr_ans *a = sr_ans_tls();

	sr_put_u64(r, "channel", channel_handle(channel));
	if (sr_call(SR_CM_DESTROY_CHANNEL, r, a, -1))
		return;
	close(channel->fd);
	free(channel);
}

int rdma_create_id(struct rdma_event_channel *channel, struct rdma_cm_id **id, void *context, enum rdma_port_space ps)
{
	struct sr_req *r = sr_req_tls();
	struct sr_ans *a = sr_ans_tls();
	struct sr_cm_id *i;
	int e;

	sr_put_u64(r, "channel", channel_handle(channel));
	sr_put_u64(r, "ps", ps);
	/* The device of the program's ids (rdma_cm picks by address; here both devices own every one). */
	if (getenv("SOFTRDMA_DEVICE") && *getenv("SOFTRDMA_DEVICE"))
		sr_put_str(r, "device", getenv("SOFTRDMA_DEVICE"));
	e = sr_call(SR_CM_CREATE_ID, r, a, -1);
	if (e)
		return fail(e);
	i = new_id((uint32_t)sr_get_u64(a, "id", 0), channel, context, ps);
	if (!i)
		return fail(ENOMEM);
	*id = &i->id;
	return 0;
}

int rdma_destroy_id(struct rdma_cm_id *id)
{
	struct sr_req *r = sr_req_tls();
	struct sr_ans *a = sr_ans_tls();
	int e;

	sr_put_u64(r, "id", id_of(id)->handle);
	e = sr_call(SR_CM_DESTROY_ID, r, a, -1);
	if (e)
		return fail(e);
	drop_id(id_of(id));
	return 0;
}

int rdma_bind_addr(struct rdma_cm_id *id, struct sockaddr *addr)
{
	struct sr_req *r = sr_req_tls();

	sr_put_u64(r, "id", id_of(id)->handle);
	if (!addr || put_sockaddr(r, "", addr))
		return fail(addr ? EAFNOSUPPORT : EINVAL);
	return id_call(SR_CM_BIND_ADDR, id_of(id), r);
}

int rdma_listen(struct rdma_cm_id *id, int backlog)
{
	struct sr_req *r = sr_req_tls();

	sr_put_u64(r, "id", id_of(id)->handle);
	sr_put_u64(r, "backlog", backlog > 0 ? (unsigned)backlog : 0);
	return id_call(SR_CM_LISTEN, id_of(id), r);
}

int rdma_resolve_addr(struct rdma_cm_id *id, struct sockaddr *src_addr, struct sockaddr *dst_addr, int timeout_ms)
{
	struct sr_req *r = sr_req_tls();

	sr_put_u64(r, "id", id_of(id)->handle);
	if (!dst_addr || put_sockaddr(r, "dst.", dst_addr))
		return fail(dst_addr ? EAFNOSUPPORT : EINVAL);
	if (src_addr && src_addr->sa_family != AF_UNSPEC && put_sockaddr(r, "src.", src_addr))
		return fail(EAFNOSUPPORT);
	sr_put_u64(r, "timeout", timeout_ms > 0 ? (unsigned)timeout_ms : 0);
	return id_call(SR_CM_RESOLVE_ADDR, id_of(id), r);
}

int rdma_resolve_route(struct rdma_cm_id *id, int timeout_ms)
{
	struct sr_req *r = sr_req_tls();

	sr_put_u64(r, "id", id_of(id)->handle);
	sr_put_u64(r, "timeout", timeout_ms > 0 ? (unsigned)timeout_ms : 0);
	return id_call(SR_CM_RESOLVE_ROUTE, id_of(id), r);
}

/* A CQ with its own completion channel, as librdmacm makes for a QP given none. */
static struct ibv_cq *own_cq(struct rdma_cm_id *id, int cqe, struct ibv_comp_channel **ch)
{
	struct ibv_cq *cq;

	*ch = ibv_create_comp_channel(id->verbs);
	if (!*ch)
		return NULL;
	cq = ibv_create_cq(id->verbs, cqe > 0 ? cqe : 1, id, *ch, 0);
	if (!cq) {
		ibv_destroy_comp_channel(*ch);
		*ch = NULL;
	}
	return cq;
}

static void drop_own_cqs(struct sr_cm_id *i)
{
	if (i->own_send_cq && i->id.send_cq) {
		ibv_destroy_cq(i->id.send_cq);
		ibv_destroy_comp_channel(i->id.send_cq_channel);
	}
	if (i->own_recv_cq && i->id.recv_cq) {
		ibv_destroy_cq(i->id.recv_cq);
		ibv_destroy_comp_channel(i->id.recv_cq_channel);
	}
	if (i->own_send_cq)
		i->id.send_cq = NULL, i->id.send_cq_channel = NULL;
	if (i->own_recv_cq)
		i->id.recv_cq = NULL, i->id.recv_cq_channel = NULL;
	i->own_send_cq = i->own_recv_cq = 0;
}

int rdma_create_qp(struct rdma_cm_id *id, struct ibv_pd *pd, struct ibv_qp_init_attr *attr)
{
	struct sr_cm_id *i = id_of(id);
	struct ibv_qp_init_attr init;
	struct ibv_qp *qp;
	struct sr_req *r;
	int e;

	if (!id->verbs || id->qp || !attr)
		return fail(EINVAL);
	if (!pd)
		pd = id->pd ? id->pd : default_pd(id->verbs);
	if (!pd || pd->context != id->verbs)
		return fail(EINVAL);
	init = *attr;
	if (!init.send_cq) {
		init.send_cq = own_cq(id, init.cap.max_send_wr, &id->send_cq_channel);
		if (!init.send_cq)
			return -1;
		id->send_cq = init.send_cq;
		i->own_send_cq = 1;
	}
	if (!init.recv_cq) {
		init.recv_cq = own_cq(id, init.cap.max_recv_wr, &id->recv_cq_channel);
		if (!init.recv_cq) {
			e = errno;
			drop_own_cqs(i);
			return fail(e);
		}
		id->recv_cq = init.recv_cq;
		i->own_recv_cq = 1;
	}
	if (!init.srq)
		init.srq = id->srq;
	qp = ibv_create_qp(pd, &init);
	if (!qp) {
		e = errno;
		drop_own_cqs(i);
		return fail(e);
	}
	r = sr_req_tls();
	sr_put_u64(r, "id", i->handle);
	sr_put_u64(r, "qp", qp->handle);
	if (id_call(SR_CM_ATTACH_QP, i, r)) {
		e = errno;
		ibv_destroy_qp(qp);
		drop_own_cqs(i);
		return fail(e);
	}
	attr->cap = init.cap;
	attr->send_cq = init.send_cq;
	attr->recv_cq = init.recv_cq;
	id->qp = qp;
	id->pd = pd;
	id->send_cq = init.send_cq;
	id->recv_cq = init.recv_cq;
	return 0;
}

int rdma_create_qp_ex(struct rdma_cm_id *id, struct ibv_qp_init_attr_ex *attr)
{
	struct ibv_qp_init_attr init;
	int ret;

	if (!attr)
		return fail(EINVAL);
	/* The extended attributes beyond a PD (creation flags, send ops, ...) are not carried. */
	if ((attr->comp_mask & ~(uint32_t)IBV_QP_INIT_ATTR_PD) || attr->create_flags) {
		sr_unsupported("rdma_create_qp_ex (extended attributes)");
		return fail(EOPNOTSUPP);
	}
	memset(&init, 0, sizeof(init));
	init.qp_context = attr->qp_context;
	init.send_cq = attr->send_cq;
	init.recv_cq = attr->recv_cq;
	init.srq = attr->srq;
	init.cap = attr->cap;
	init.qp_type = attr->qp_type;
	init.sq_sig_all = attr->sq_sig_all;
	ret = rdma_create_qp(id, (attr->comp_mask & IBV_QP_INIT_ATTR_PD) ? attr->pd : NULL, &init);
	if (!ret) {
		attr->cap = init.cap;
		attr->send_cq = init.send_cq;
		attr->recv_cq = init.recv_cq;
	}
	return ret;
}

void rdma_destroy_qp(struct rdma_cm_id *id)
{
	struct sr_req *r = sr_req_tls();

	if (!id->qp)
		return;
	sr_put_u64(r, "id", id_of(id)->handle);
	id_call(SR_CM_DETACH_QP, id_of(id), r);
	ibv_destroy_qp(id->qp);
	id->qp = NULL;
	drop_own_cqs(id_of(id));
}

static void put_conn_param(struct sr_req *r, const struct rdma_conn_param *p)
{
	if (!p)
		return;
	sr_put_u64(r, "param", 1);
	if (p->private_data && p->private_data_len)
		sr_put_hex(r, "private_data", p->private_data, p->private_data_len);
	sr_put_u64(r, "responder_resources", p->responder_resources);
	sr_put_u64(r, "initiator_depth", p->initiator_depth);
	sr_put_u64(r, "flow_control", p->flow_control);
	sr_put_u64(r, "retry_count", p->retry_count);
	sr_put_u64(r, "rnr_retry_count", p->rnr_retry_count);
	sr_put_u64(r, "srq", p->srq);
	sr_put_u64(r, "qp_num", p->qp_num);
}

int rdma_connect(struct rdma_cm_id *id, struct rdma_conn_param *conn_param)
{
	struct sr_req *r = sr_req_tls();

	sr_put_u64(r, "id", id_of(id)->handle);
	put_conn_param(r, conn_param);
	return id_call(SR_CM_CONNECT, id_of(id), r);
}

int rdma_accept(struct rdma_cm_id *id, struct rdma_conn_param *conn_param)
{
	struct sr_req *r = sr_req_tls();

	sr_put_u64(r, "id", id_of(id)->handle);
	put_conn_param(r, conn_param);
	return id_call(SR_CM_ACCEPT, id_of(id), r);
}

int rdma_reject(struct rdma_cm_id *id, const void *private_data, uint8_t private_data_len)
{
	struct sr_req *r = sr_req_tls();

	sr_put_u64(r, "id", id_of(id)->handle);
	if (private_data && private_data_len)
		sr_put_hex(r, "private_data", private_data, private_data_len);
	return id_call(SR_CM_REJECT, id_of(id), r);
}

int rdma_disconnect(struct rdma_cm_id *id)
{
	struct sr_req *r = sr_req_tls();

	sr_put_u64(r, "id", id_of(id)->handle);
	return id_call(SR_CM_DISCONNECT, id_of(id), r);
}

int rdma_migrate_id(struct rdma_cm_id *id, struct rdma_event_channel *channel)
{
	struct sr_req *r = sr_req_tls();

	sr_put_u64(r, "id", id_of(id)->handle);
	sr_put_u64(r, "channel", channel_handle(channel));
	if (id_call(SR_CM_MIGRATE_ID, id_of(id), r))
		return -1;
	id->channel = channel;
	return 0;
}

int rdma_set_option(struct rdma_cm_id *id, int level, int optname, void *optval, size_t optlen)
{
	struct sr_req *r = sr_req_tls();
	uint64_t v = 0;

	if (!optval)
		return fail(EINVAL);
	switch (optlen) {
	case 1: v = *(uint8_t *)optval; break;
	case 2: v = *(uint16_t *)optval; break;
	case 4: v = *(uint32_t *)optval; break;
	case 8: v = *(uint64_t *)optval; break;
	default: return fail(EINVAL);
	}
	sr_put_u64(r, "id", id_of(id)->handle);
	sr_put_u64(r, "level", (unsigned)level);
	sr_put_u64(r, "optname", (unsigned)optname);
	sr_put_u64(r, "value", v);
	return id_call(SR_CM_SET_OPTION, id_of(id), r);
}

int rdma_get_cm_event(struct rdma_event_channel *channel, struct rdma_cm_event **event)
{
	struct sr_req *r;
	struct sr_ans *a;
	struct sr_cm_event *ev;
	struct sr_cm_id *i;
	uint32_t idh, listen;
	enum rdma_port_space ps;
	unsigned char b;
	ssize_t n;
	uint32_t h;
	int e, fd, blocking;

	if (!channel || !event)
		return fail(EINVAL);
	/* Read before blocking: another thread may destroy the channel meanwhile. */
	h = channel_handle(channel);
	fd = channel->fd;
	blocking = !(fcntl(fd, F_GETFL) & O_NONBLOCK);
	/*
	 * One byte per queued event: blocks (or EAGAIN) as the program set the fd. A byte whose
	 * event went with its destroyed id fetches nothing (EAGAIN): the next one is waited for.
	 */
	do {
		do
			n = read(fd, &b, 1);
		while (n < 0 && errno == EINTR);
		if (n < 0)
			return -1;
		r = sr_req_tls();
		a = sr_ans_tls();
		sr_put_u64(r, "channel", h);
		e = sr_call(SR_CM_GET_EVENT, r, a, -1);
	} while (n > 0 && e == EAGAIN);
	if (n == 0) {
		/*
		 * The daemon closed its end: the channel was destroyed (EINVAL here), or the daemon
		 * is gone. A read on a destroyed channel never completes with librdmacm (the kernel
		 * waits for an event that cannot come), so a blocking call waits for the process's end.
		 */
		if (e == EINVAL && blocking)
			for (;;)
				pause();
		return fail(e == EINVAL ? EBADF : ENODEV);
	}
	if (e)
		return fail(e);
	ev = calloc(1, sizeof(*ev));
	if (!ev)
		return fail(ENOMEM);
	ev->handle = (uint32_t)sr_get_u64(a, "ev", 0);
	ev->ev.event = (enum rdma_cm_event_type)sr_get_u64(a, "event", 0);
	ev->ev.status = (int)strtol(sr_get(a, "status") ? sr_get(a, "status") : "0", NULL, 10);
	idh = (uint32_t)sr_get_u64(a, "id", 0);
	listen = (uint32_t)sr_get_u64(a, "listen", 0);
	ps = (enum rdma_port_space)sr_get_u64(a, "ps", RDMA_PS_TCP);
	ev->ev.listen_id = listen ? (struct rdma_cm_id *)find_id(listen) : NULL;
	i = find_id(idh);
	if (!i) {
		/* A CONNECT_REQUEST's new id: the listener's channel and context. */
		struct rdma_cm_id *l = ev->ev.listen_id;
		i = new_id(idh, l ? l->channel : channel, l ? l->context : NULL, ps);
		if (!i) {
			free(ev);
			return fail(ENOMEM);
		}
	}
	ev->ev.id = &i->id;
	{
		const char *hex = sr_get(a, "private_data");
		int len = hex ? (int)strcspn(hex, "\n") / 2 : 0;
		const void *pd = NULL;

		if (len > SR_PRIVATE_DATA)
			len = SR_PRIVATE_DATA;
		if (len && !sr_get_hex(a, "private_data", ev->private_data, len))
			pd = ev->private_data;
		else
			len = 0;
		if (ps == RDMA_PS_UDP || ps == RDMA_PS_IPOIB) {
			ev->ev.param.ud.private_data = pd;
			ev->ev.param.ud.private_data_len = (uint8_t)len;
			/* A multicast event: the program's join context (librdmacm's ucma_process_join). */
			if (sr_get(a, "mc_context"))
				ev->ev.param.ud.private_data = (void *)(uintptr_t)sr_get_u64(a, "mc_context", 0);
			ev->ev.param.ud.qp_num = (uint32_t)sr_get_u64(a, "qp_num", 0);
			ev->ev.param.ud.qkey = (uint32_t)sr_get_u64(a, "qkey", 0);
			sr_get_ah_attr(a, &ev->ev.param.ud.ah_attr, "ah_attr.");
		} else {
			struct rdma_conn_param *p = &ev->ev.param.conn;

			p->private_data = pd;
			p->private_data_len = (uint8_t)len;
			p->responder_resources = (uint8_t)sr_get_u64(a, "responder_resources", 0);
			p->initiator_depth = (uint8_t)sr_get_u64(a, "initiator_depth", 0);
			p->flow_control = (uint8_t)sr_get_u64(a, "flow_control", 0);
			p->retry_count = (uint8_t)sr_get_u64(a, "retry_count", 0);
			p->rnr_retry_count = (uint8_t)sr_get_u64(a, "rnr_retry_count", 0);
			p->srq = (uint8_t)sr_get_u64(a, "srq", 0);
			p->qp_num = (uint32_t)sr_get_u64(a, "qp_num", 0);
		}
	}
	update_id(i, a);
	*event = &ev->ev;
	return 0;
}

int rdma_ack_cm_event(struct rdma_cm_event *event)
{
	struct sr_req *r = sr_req_tls();
	struct sr_ans *a = sr_ans_tls();
	struct sr_cm_event *ev = (struct sr_cm_event *)event;
	int e;

	if (!event)
		return fail(EINVAL);
	sr_put_u64(r, "ev", ev->handle);
	e = sr_call(SR_CM_ACK_EVENT, r, a, -1);
	if (e)
		return fail(e);
	free(ev);
	return 0;
}

/*
 * Multicast (RoCE: the group's GID from its IP address, the QP attached by the daemon). The
 * program's `context` goes to the daemon as a number and comes back in the MULTICAST_JOIN or
 * MULTICAST_ERROR event's `param.ud.private_data`, as librdmacm's `ucma_process_join` puts it.
 */
static int join_mcast(struct rdma_cm_id *id, struct sockaddr *addr, void *context, int send_only)
{
	struct sr_req *r = sr_req_tls();

	if (!id || !addr)
		return fail(EINVAL);
	sr_put_u64(r, "id", id_of(id)->handle);
	if (put_sockaddr(r, "", addr))
		return fail(EAFNOSUPPORT);
	sr_put_u64(r, "context", (uint64_t)(uintptr_t)context);
	if (send_only)
		sr_put_u64(r, "send_only", 1);
	return id_call(SR_CM_JOIN_MCAST, id_of(id), r);
}

int rdma_join_multicast(struct rdma_cm_id *id, struct sockaddr *addr, void *context)
{
	return join_mcast(id, addr, context, 0);
}

int rdma_join_multicast_ex(struct rdma_cm_id *id, struct rdma_cm_join_mc_attr_ex *mc_join_attr, void *context)
{
	const uint32_t known = RDMA_CM_JOIN_MC_ATTR_ADDRESS | RDMA_CM_JOIN_MC_ATTR_JOIN_FLAGS;

	if (!mc_join_attr || (mc_join_attr->comp_mask & ~known) || !(mc_join_attr->comp_mask & RDMA_CM_JOIN_MC_ATTR_ADDRESS) ||
	    !(mc_join_attr->comp_mask & RDMA_CM_JOIN_MC_ATTR_JOIN_FLAGS) || mc_join_attr->join_flags >= RDMA_MC_JOIN_FLAG_RESERVED)
		return fail(EINVAL);
	return join_mcast(id, mc_join_attr->addr, context, mc_join_attr->join_flags == RDMA_MC_JOIN_FLAG_SENDONLY_FULLMEMBER);
}

int rdma_leave_multicast(struct rdma_cm_id *id, struct sockaddr *addr)
{
	struct sr_req *r = sr_req_tls();

	if (!id || !addr)
		return fail(EINVAL);
	sr_put_u64(r, "id", id_of(id)->handle);
	if (put_sockaddr(r, "", addr))
		return fail(EADDRNOTAVAIL);
	return id_call(SR_CM_LEAVE_MCAST, id_of(id), r);
}

/* The calls softrdma does not carry: one line on stderr, EOPNOTSUPP. */
#define SR_UNSUPPORTED(ret, name, ...)                  \
	ret name(__VA_ARGS__)                           \
	{                                               \
		errno = sr_unsupported(#name);          \
		return (ret)-1;                         \
	}
#define SR_UNSUPPORTED_PTR(ret, name, ...)              \
	ret name(__VA_ARGS__)                           \
	{                                               \
		errno = sr_unsupported(#name);          \
		return NULL;                            \
	}

SR_UNSUPPORTED(int, rdma_establish, struct rdma_cm_id *id)
SR_UNSUPPORTED(int, rdma_init_qp_attr, struct rdma_cm_id *id, struct ibv_qp_attr *qp_attr, int *qp_attr_mask)
SR_UNSUPPORTED(int, rdma_notify, struct rdma_cm_id *id, enum ibv_event_type event)
SR_UNSUPPORTED(int, rdma_create_srq, struct rdma_cm_id *id, struct ibv_pd *pd, struct ibv_srq_init_attr *attr)
SR_UNSUPPORTED(int, rdma_create_srq_ex, struct rdma_cm_id *id, struct ibv_srq_init_attr_ex *attr)
SR_UNSUPPORTED(int, rdma_create_ep, struct rdma_cm_id **id, struct rdma_addrinfo *res, struct ibv_pd *pd, struct ibv_qp_init_attr *qp_init_attr)
SR_UNSUPPORTED(int, rdma_get_request, struct rdma_cm_id *listen, struct rdma_cm_id **id)
SR_UNSUPPORTED(int, rdma_set_local_ece, struct rdma_cm_id *id, struct ibv_ece *ece)
SR_UNSUPPORTED(int, rdma_get_remote_ece, struct rdma_cm_id *id, struct ibv_ece *ece)
SR_UNSUPPORTED(int, rdma_reject_ece, struct rdma_cm_id *id, const void *private_data, uint8_t private_data_len)
SR_UNSUPPORTED_PTR(struct ibv_context **, rdma_get_devices, int *num_devices)

void rdma_destroy_srq(struct rdma_cm_id *id)
{
	sr_unsupported("rdma_destroy_srq");
}

void rdma_destroy_ep(struct rdma_cm_id *id)
{
	sr_unsupported("rdma_destroy_ep");
}

void rdma_free_devices(struct ibv_context **list)
{
	sr_unsupported("rdma_free_devices");
}
