/*
 * softrdma_preload.node: what softrdma daemon needs of the kernel and Node cannot do itself,
 * for libsoftrdma.so's clients (docs/preload.md): a socket pair, passing and receiving a file
 * descriptor (SCM_RIGHTS), and mapping a client's memfd shared into the daemon as an
 * ArrayBuffer (unmapped when the buffer is collected). Nothing here blocks: sockets are used
 * with MSG_DONTWAIT and answer -errno when they would block.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <node_api.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#define CHECK(env, call)                                                  \
	do {                                                              \
		if ((call) != napi_ok) {                                  \
			napi_throw_error((env), NULL, #call " failed");   \
			return NULL;                                      \
		}                                                         \
	} while (0)

static napi_value num(napi_env env, double v)
{
	napi_value r;

	napi_create_double(env, v, &r);
	return r;
}

static int arg_i32(napi_env env, napi_value v, int32_t *out)
{
	return napi_get_value_int32(env, v, out) == napi_ok ? 0 : -1;
}

/* socketpair(): [daemonEnd (non-blocking), clientEnd]; throws on failure. */
static napi_value SocketPair(napi_env env, napi_callback_info info)
{
	int sv[2];
	napi_value arr;

	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0) {
		napi_throw_error(env, NULL, strerror(errno));
		return NULL;
	}
	fcntl(sv[0], F_SETFL, fcntl(sv[0], F_GETFL) | O_NONBLOCK);
	CHECK(env, napi_create_array_with_length(env, 2, &arr));
	napi_set_element(env, arr, 0, num(env, sv[0]));
	napi_set_element(env, arr, 1, num(env, sv[1]));
	return arr;
}

/* sendFd(sock, bytes, fd): sends bytes with fd attached; returns bytes sent or -errno. */
static napi_value SendFd(napi_env env, napi_callback_info info)
{
	size_t argc = 3;
	napi_value argv[3];
	int32_t sock, fd;
	void *data;
	size_t len;
	char cbuf[CMSG_SPACE(sizeof(int))];
	struct iovec iov;
	struct msghdr mh = { 0 };
	struct cmsghdr *cm;
	ssize_t w;

	CHECK(env, napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
	if (argc < 3 || arg_i32(env, argv[0], &sock) || arg_i32(env, argv[2], &fd) ||
	    napi_get_buffer_info(env, argv[1], &data, &len) != napi_ok || len == 0) {
		napi_throw_type_error(env, NULL, "sendFd(sock, bytes, fd)");
		return NULL;
	}
	iov.iov_base = data;
	iov.iov_len = len;
	mh.msg_iov = &iov;
	mh.msg_iovlen = 1;
	memset(cbuf, 0, sizeof(cbuf));
	mh.msg_control = cbuf;
	mh.msg_controllen = sizeof(cbuf);
	cm = CMSG_FIRSTHDR(&mh);
	cm->cmsg_level = SOL_SOCKET;
	cm->cmsg_type = SCM_RIGHTS;
	cm->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(cm), &fd, sizeof(int));
	w = sendmsg(sock, &mh, MSG_DONTWAIT | MSG_NOSIGNAL);
	return num(env, w < 0 ? -errno : (double)w);
}

/*
 * recvFd(sock): reads one byte and the fd sent with it; returns the fd, or -errno (-EAGAIN:
 * nothing there, -EBADMSG: a byte without an fd). Extra fds of the message are closed.
 */
static napi_value RecvFd(napi_env env, napi_callback_info info)
{
	size_t argc = 1;
	napi_value argv[1];
	int32_t sock;
	char byte;
	char cbuf[CMSG_SPACE(sizeof(int) * 4)];
	struct iovec iov = { .iov_base = &byte, .iov_len = 1 };
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = cbuf, .msg_controllen = sizeof(cbuf) };
	struct cmsghdr *cm;
	ssize_t r;
	int got = -1;

	CHECK(env, napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
	if (argc < 1 || arg_i32(env, argv[0], &sock)) {
		napi_throw_type_error(env, NULL, "recvFd(sock)");
		return NULL;
	}
	r = recvmsg(sock, &mh, MSG_DONTWAIT | MSG_CMSG_CLOEXEC);
	if (r < 0)
		return num(env, -errno);
	if (r == 0)
		return num(env, -ECONNRESET);
	for (cm = CMSG_FIRSTHDR(&mh); cm; cm = CMSG_NXTHDR(&mh, cm)) {
		if (cm->cmsg_level != SOL_SOCKET || cm->cmsg_type != SCM_RIGHTS)
			continue;
		for (size_t k = 0; k < (cm->cmsg_len - CMSG_LEN(0)) / sizeof(int); k++) {
			int fd;

			memcpy(&fd, CMSG_DATA(cm) + k * sizeof(int), sizeof(int));
			if (got < 0)
				got = fd;
			else
				close(fd);
		}
	}
	return num(env, got < 0 ? -EBADMSG : got);
}

static void unmap(napi_env env, void *data, void *hint)
{
	munmap(data, (size_t)(uintptr_t)hint);
}

/*
 * mapShared(fd, length): the first `length` bytes of a regular file or memfd, mapped shared
 * read-write, as an ArrayBuffer; null (with no mapping) when the file is shorter or mmap fails.
 */
static napi_value MapShared(napi_env env, napi_callback_info info)
{
	size_t argc = 2;
	napi_value argv[2], ab, nul;
	int32_t fd;
	double dlen;
	size_t len;
	struct stat st;
	void *p;

	CHECK(env, napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
	if (argc < 2 || arg_i32(env, argv[0], &fd) || napi_get_value_double(env, argv[1], &dlen) != napi_ok) {
		napi_throw_type_error(env, NULL, "mapShared(fd, length)");
		return NULL;
	}
	napi_get_null(env, &nul);
	if (!(dlen > 0 && dlen <= (double)(1ull << 40)))
		return nul;
	len = (size_t)dlen;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || (size_t)st.st_size < len)
		return nul;
	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED)
		return nul;
	if (napi_create_external_arraybuffer(env, p, len, unmap, (void *)(uintptr_t)len, &ab) != napi_ok) {
		munmap(p, len);
		return nul;
	}
	return ab;
}

/* writeAll(fd, bytes): a non-blocking write; bytes written or -errno. */
static napi_value Write(napi_env env, napi_callback_info info)
{
	size_t argc = 2;
	napi_value argv[2];
	int32_t fd;
	void *data;
	size_t len;
	ssize_t w;

	CHECK(env, napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
	if (argc < 2 || arg_i32(env, argv[0], &fd) || napi_get_buffer_info(env, argv[1], &data, &len) != napi_ok) {
		napi_throw_type_error(env, NULL, "write(fd, bytes)");
		return NULL;
	}
	w = send(fd, data, len, MSG_DONTWAIT | MSG_NOSIGNAL);
	return num(env, w < 0 ? -errno : (double)w);
}

static napi_value Close(napi_env env, napi_callback_info info)
{
	size_t argc = 1;
	napi_value argv[1];
	int32_t fd;

	CHECK(env, napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
	if (argc < 1 || arg_i32(env, argv[0], &fd) || fd < 0)
		return NULL;
	close(fd);
	return NULL;
}

static napi_value Init(napi_env env, napi_value exports)
{
	napi_property_descriptor m[] = {
		{ "socketPair", NULL, SocketPair, NULL, NULL, NULL, napi_default_method, NULL },
		{ "sendFd", NULL, SendFd, NULL, NULL, NULL, napi_default_method, NULL },
		{ "recvFd", NULL, RecvFd, NULL, NULL, NULL, napi_default_method, NULL },
		{ "mapShared", NULL, MapShared, NULL, NULL, NULL, napi_default_method, NULL },
		{ "write", NULL, Write, NULL, NULL, NULL, napi_default_method, NULL },
		{ "close", NULL, Close, NULL, NULL, NULL, napi_default_method, NULL },
	};

	CHECK(env, napi_define_properties(env, exports, sizeof(m) / sizeof(m[0]), m));
	return exports;
}

NAPI_MODULE(NODE_GYP_MODULE_NAME, Init)
