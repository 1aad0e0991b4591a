/*
 * The connection to softrdma daemon: one unix stream socket per process, opened on first use
 * (SOFTRDMA_SOCKET), one request at a time under a mutex. Frames are those of
 * src/preload/protocol.ts: request `u32 length | u32 op | u32 seq | payload`, answer
 * `u32 length | u32 seq | i32 errno | payload`, little-endian, at most 64 KiB.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "sr.h"

static pthread_mutex_t conn_lock = PTHREAD_MUTEX_INITIALIZER;
static int conn_fd = -1;
/* The socket the daemon gave at HELLO for passing fds to it (memory registration), or -1. */
static int chan_fd = -1;
static pid_t conn_pid;
static uint32_t conn_seq;

void sr_req_init(struct sr_req *r)
{
	r->len = 0;
	r->overflow = 0;
	r->buf[0] = 0;
}

static void put(struct sr_req *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(struct sr_req *r, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (r->overflow)
		return;
	va_start(ap, fmt);
	n = vsnprintf(r->buf + r->len, sizeof(r->buf) - r->len, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof(r->buf) - r->len) {
		r->overflow = 1;
		return;
	}
	r->len += (size_t)n;
}

void sr_put_u64(struct sr_req *r, const char *key, uint64_t v)
{
	put(r, "%s=%" PRIu64 "\n", key, v);
}

void sr_put_i64(struct sr_req *r, const char *key, int64_t v)
{
	put(r, "%s=%" PRId64 "\n", key, v);
}

void sr_put_str(struct sr_req *r, const char *key, const char *v)
{
	put(r, "%s=%s\n", key, v);
}

void sr_put_idx(struct sr_req *r, const char *prefix, unsigned i, const char *key, uint64_t v)
{
	put(r, "%s.%u.%s=%" PRIu64 "\n", prefix, i, key, v);
}

static int write_all(int fd, const void *p, size_t n, int send_fd)
{
	const char *c = p;

	while (n > 0) {
		struct iovec iov = { .iov_base = (void *)c, .iov_len = n };
		struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1 };
		char cbuf[CMSG_SPACE(sizeof(int))];
		ssize_t w;

		if (send_fd >= 0) {
			struct cmsghdr *cm;

			memset(cbuf, 0, sizeof(cbuf));
			mh.msg_control = cbuf;
			mh.msg_controllen = sizeof(cbuf);
			cm = CMSG_FIRSTHDR(&mh);
			cm->cmsg_level = SOL_SOCKET;
			cm->cmsg_type = SCM_RIGHTS;
			cm->cmsg_len = CMSG_LEN(sizeof(int));
			memcpy(CMSG_DATA(cm), &send_fd, sizeof(int));
		}
		w = sendmsg(fd, &mh, MSG_NOSIGNAL);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			return errno;
		}
		send_fd = -1;
		c += w;
		n -= (size_t)w;
	}
	return 0;
}

/* Reads exactly n bytes; an fd passed along is kept in *fd_out (others closed). */
static int read_all(int fd, void *p, size_t n, int *fd_out)
{
	char *c = p;

	while (n > 0) {
		struct iovec iov = { .iov_base = c, .iov_len = n };
		char cbuf[CMSG_SPACE(sizeof(int) * 4)];
		struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = cbuf, .msg_controllen = sizeof(cbuf) };
		struct cmsghdr *cm;
		ssize_t r = recvmsg(fd, &mh, MSG_CMSG_CLOEXEC);

		if (r < 0) {
			if (errno == EINTR)
				continue;
			return errno;
		}
		if (r == 0)
			return ECONNRESET;
		for (cm = CMSG_FIRSTHDR(&mh); cm; cm = CMSG_NXTHDR(&mh, cm)) {
			if (cm->cmsg_level != SOL_SOCKET || cm->cmsg_type != SCM_RIGHTS)
				continue;
			for (size_t k = 0; k < (cm->cmsg_len - CMSG_LEN(0)) / sizeof(int); k++) {
				int got;

				memcpy(&got, CMSG_DATA(cm) + k * sizeof(int), sizeof(int));
				if (fd_out && *fd_out < 0)
					*fd_out = got;
				else
					close(got);
			}
		}
		c += r;
		n -= (size_t)r;
	}
	return 0;
}

/* Writes one request frame; the header and payload go in one write. */
static int send_frame(enum sr_op op, const struct sr_req *req)
{
	uint32_t h[3];
	size_t plen = req ? req->len : 0;
	char frame[12 + sizeof(req->buf)];

	h[0] = (uint32_t)(8 + plen);
	h[1] = (uint32_t)op;
	h[2] = ++conn_seq;
	memcpy(frame, h, 12);
	if (plen)
		memcpy(frame + 12, req->buf, plen);
	return write_all(conn_fd, frame, 12 + plen, -1);
}

static int exchange(enum sr_op op, const struct sr_req *req, struct sr_ans *ans, int send_fd)
{
	/*
	 * A passed fd goes first, on the fd channel: the daemon reads the control socket through
	 * Node, which drops ancillary data, and takes the fd from the channel when the request that
	 * names it arrives.
	 */
	if (send_fd >= 0) {
		int e;

		if (chan_fd < 0)
			return EOPNOTSUPP;
		e = write_all(chan_fd, "F", 1, send_fd);
		if (e)
			return e;
	}
	uint32_t rh[3];
	int e;

	e = send_frame(op, req);
	if (e)
		return e;
	e = read_all(conn_fd, rh, 12, &ans->fd);
	if (e)
		return e;
	if (rh[0] < 8 || rh[0] > SR_MAX_FRAME || rh[1] != conn_seq)
		return EPROTO;
	ans->len = rh[0] - 8;
	e = read_all(conn_fd, ans->buf, ans->len, &ans->fd);
	if (e)
		return e;
	ans->buf[ans->len < sizeof(ans->buf) ? ans->len : sizeof(ans->buf) - 1] = 0;
	ans->err = (int32_t)rh[2];
	return 0;
}

static int connect_daemon(void)
{
	const char *path = getenv("SOFTRDMA_SOCKET");
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	struct sr_req hello;
	static struct sr_ans ans;
	int fd, e;

	if (!path || !*path || strlen(path) >= sizeof(sa.sun_path)) {
		fprintf(stderr, "libsoftrdma: SOFTRDMA_SOCKET does not name the daemon's socket (run the program with softrdma exec)\n");
		return ENOENT;
	}
	strcpy(sa.sun_path, path);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return errno;
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		e = errno;
		fprintf(stderr, "libsoftrdma: cannot reach softrdma daemon at %s: %s\n", path, strerror(e));
		close(fd);
		return e;
	}
	conn_fd = fd;
	conn_pid = getpid();
	sr_req_init(&hello);
	sr_put_u64(&hello, "pid", (uint64_t)conn_pid);
	ans.fd = -1;
	e = exchange(SR_HELLO, &hello, &ans, -1);
	if (e || ans.err) {
		close(fd);
		conn_fd = -1;
		return e ? e : ans.err;
	}
	chan_fd = ans.fd;
	return 0;
}

/* Closes the connection and its fd channel (conn_lock held); the next call opens a new one. */
static void drop_connection(void)
{
	close(conn_fd);
	conn_fd = -1;
	if (chan_fd >= 0)
		close(chan_fd);
	chan_fd = -1;
}

int sr_call(enum sr_op op, const struct sr_req *req, struct sr_ans *ans, int send_fd)
{
	int e = 0;

	if (req && req->overflow)
		return E2BIG;
	ans->fd = -1;
	ans->err = 0;
	ans->len = 0;
	ans->buf[0] = 0;
	pthread_mutex_lock(&conn_lock);
	/* A forked child does not share its parent's connection (nor its objects). */
	if (conn_fd >= 0 && conn_pid != getpid()) {
		drop_connection();
	}
	if (conn_fd < 0)
		e = connect_daemon();
	if (!e)
		e = exchange(op, req, ans, send_fd);
	if (e && conn_fd >= 0 && e != E2BIG && e != EOPNOTSUPP) {
		/* A broken stream cannot be resynchronised. */
		drop_connection();
	}
	pthread_mutex_unlock(&conn_lock);
	return e ? e : ans->err;
}

int sr_notify(enum sr_op op, const struct sr_req *req)
{
	int e;

	pthread_mutex_lock(&conn_lock);
	/* Only on the connection the objects it names were made on; a forked child has none. */
	e = conn_fd >= 0 && conn_pid == getpid() ? send_frame(op, req) : ENOTCONN;
	if (e && e != ENOTCONN) {
		drop_connection();
	}
	pthread_mutex_unlock(&conn_lock);
	return e;
}

const char *sr_get(const struct sr_ans *a, const char *key)
{
	size_t kl = strlen(key);
	const char *p = a->buf, *end = a->buf + a->len;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));

		if (!nl)
			break;
		if ((size_t)(nl - p) > kl && p[kl] == '=' && !memcmp(p, key, kl))
			return p + kl + 1;
		p = nl + 1;
	}
	return NULL;
}

uint64_t sr_get_u64(const struct sr_ans *a, const char *key, uint64_t dflt)
{
	const char *v = sr_get(a, key);

	return v ? strtoull(v, NULL, 0) : dflt;
}

uint64_t sr_get_idx(const struct sr_ans *a, const char *prefix, unsigned i, const char *key, uint64_t dflt)
{
	char k[96];

	/* `prefix.i` (a list of scalars), or `prefix.i.key` (a list of records). */
	if (key)
		snprintf(k, sizeof(k), "%s.%u.%s", prefix, i, key);
	else
		snprintf(k, sizeof(k), "%s.%u", prefix, i);
	return sr_get_u64(a, k, dflt);
}

void sr_fill(void *dst, const struct sr_field *fields, size_t n, const struct sr_ans *a, size_t limit, const char *prefix)
{
	for (size_t i = 0; i < n; i++) {
		const struct sr_field *f = &fields[i];
		const char *v;
		char key[128];
		uint64_t x;

		if (f->off + f->size > limit)
			continue;
		snprintf(key, sizeof(key), "%s%s", prefix ? prefix : "", f->name);
		v = sr_get(a, key);
		if (!v)
			continue;
		x = strtoull(v, NULL, 0);
		switch (f->size) {
		case 1: { uint8_t y = (uint8_t)x; memcpy((char *)dst + f->off, &y, 1); break; }
		case 2: { uint16_t y = (uint16_t)x; memcpy((char *)dst + f->off, &y, 2); break; }
		case 4: { uint32_t y = (uint32_t)x; memcpy((char *)dst + f->off, &y, 4); break; }
		case 8: memcpy((char *)dst + f->off, &x, 8); break;
		}
	}
}

void sr_put_fields(struct sr_req *r, const void *src, const struct sr_field *fields, size_t n, const char *prefix)
{
	for (size_t i = 0; i < n; i++) {
		const struct sr_field *f = &fields[i];
		const char *p = (const char *)src + f->off;
		uint64_t x = 0;

		switch (f->size) {
		case 1: { uint8_t y; memcpy(&y, p, 1); x = y; break; }
		case 2: { uint16_t y; memcpy(&y, p, 2); x = y; break; }
		case 4: { uint32_t y; memcpy(&y, p, 4); x = y; break; }
		case 8: memcpy(&x, p, 8); break;
		}
		put(r, "%s%s=%" PRIu64 "\n", prefix ? prefix : "", f->name, x);
	}
}

void sr_put_hex(struct sr_req *r, const char *key, const void *p, size_t n)
{
	static const char digits[] = "0123456789abcdef";
	const unsigned char *b = p;

	put(r, "%s=", key);
	for (size_t i = 0; i < n && !r->overflow; i++) {
		if (r->len + 3 > sizeof(r->buf)) {
			r->overflow = 1;
			return;
		}
		r->buf[r->len++] = digits[b[i] >> 4];
		r->buf[r->len++] = digits[b[i] & 15];
	}
	put(r, "\n");
}

int sr_get_hex(const struct sr_ans *a, const char *key, void *out, size_t n)
{
	const char *v = sr_get(a, key);
	unsigned char *b = out;

	if (!v || strcspn(v, "\n") != 2 * n)
		return -1;
	for (size_t i = 0; i < n; i++) {
		char h[3] = { v[2 * i], v[2 * i + 1], 0 };

		b[i] = (unsigned char)strtoul(h, NULL, 16);
	}
	return 0;
}

int sr_unsupported(const char *call)
{
	fprintf(stderr, "libsoftrdma: %s is not supported by softrdma (EOPNOTSUPP)\n", call);
	return EOPNOTSUPP;
}

struct sr_req *sr_req_tls(void)
{
	static __thread struct sr_req r;

	sr_req_init(&r);
	return &r;
}

struct sr_ans *sr_ans_tls(void)
{
	static __thread struct sr_ans a;

	return &a;
}
