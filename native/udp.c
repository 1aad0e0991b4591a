/*
 * softrdma_net: batched UDP datagrams for the RoCEv2 transport (src/roce/net.ts), Linux only.
 *
 * Node's dgram sends one datagram per call and calls JavaScript once per received datagram.
 * This addon owns a UDP socket of its own, polled by the Node event loop (a libuv poll handle
 * on the descriptor, no thread), and gives:
 *   - recvmmsg(2) in batches, with UDP_GRO where the kernel has it (a coalesced datagram is
 *     split back into its segments by the gso_size control message), the whole batch handed to
 *     JavaScript in one callback: one Buffer, plus offset/length/source address/port per datagram
 *     in a shared Uint32Array;
 *   - sendmmsg(2) of many datagrams per call, with UDP_SEGMENT (GSO) for a run of equal-sized
 *     datagrams to one peer;
 *   - IP_MTU_DISCOVER = IP_PMTUDISC_DO on its socket (DF set, IPv4 ID 0 for an unconnected
 *     socket), and a setsockopt on any descriptor (for the dgram fallback's socket);
 *   - IPv6 sockets (RoCEv2 over IPv6, IBTA Vol. 1 Annex A17): IPV6_V6ONLY, IPV6_DONTFRAG and
 *     IPV6_MTU_DISCOVER = IPV6_PMTUDISC_DO (no fragmentation), UDP_NO_CHECK6_RX (Linux rxe sends
 *     a zero UDP checksum over IPv6, which an IPv6 socket otherwise drops, RFC 6936), and
 *     IPV6_AUTOFLOWLABEL = 0 (flow label 0 and traffic class 0, as rxe writes its IPv6 header).
 * It also carries the hardware CRC32C of MPA (native/crc32c.c).
 * Written against node_api.h (Node-API version 8) and uv.h from Node's own headers.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <netinet/in.h>
#include <netinet/udp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#define NAPI_VERSION 8
#include <node_api.h>
#include <uv.h>

#include "crc32c.h"

#ifndef UDP_SEGMENT
#define UDP_SEGMENT 103
#endif
#ifndef UDP_GRO
#define UDP_GRO 104
#endif
#ifndef SOL_UDP
#define SOL_UDP 17
#endif

/* Datagrams (messages) per sendmmsg call and packets (iovecs) per call, at most. */
#define MAX_TX_MSGS 64
#define MAX_TX_IOV 1024
/* Receive: slots per recvmmsg, and the segments one GRO datagram may hold (the kernel's
 * UDP_GRO_CNT_MAX is 64). */
#define MAX_RX_SLOTS 64
#define MAX_GRO_SEGS 64
/* Per received datagram: offset, length, source address (IPv4) or scope id (IPv6), source port,
 * then the 16 octets of an IPv6 source address. */
#define META_WORDS 8
#ifndef IPV6_AUTOFLOWLABEL
#define IPV6_AUTOFLOWLABEL 70
#endif
#ifndef UDP_NO_CHECK6_RX
#define UDP_NO_CHECK6_RX 102
#endif

typedef struct sock_s {
  napi_env env;
  int fd;
  int closed;     /* close() was called (or the socket never bound) */
  int finalized;  /* the JS object is gone */
  int polling;    /* the poll handle was initialised */
  int handle_closed; /* uv_close finished (or was never needed) */
  int want_writable;
  int gro;
  int family; /* AF_INET or AF_INET6 */
  uv_poll_t poll;
  napi_ref on_batch;
  napi_ref on_writable;
  napi_ref self;    /* weak reference to the JS object (the callbacks' receiver) */
  napi_ref meta_ref;
  uint32_t *meta;   /* META_WORDS per entry: offset, length, source address, source port */
  uint32_t meta_cap;
  napi_async_context async;
  /* receive */
  unsigned nslots;
  size_t slot_size;
  char *rx_area;
  struct mmsghdr rx_msgs[MAX_RX_SLOTS];
  struct iovec rx_iov[MAX_RX_SLOTS];
  struct sockaddr_in6 rx_addr[MAX_RX_SLOTS]; /* or sockaddr_in (IPv4 sockets) */
  char rx_ctl[MAX_RX_SLOTS][CMSG_SPACE(sizeof(int))];
  /* transmit */
  struct mmsghdr tx_msgs[MAX_TX_MSGS];
  struct iovec tx_iov[MAX_TX_IOV];
  struct sockaddr_in6 tx_addr[MAX_TX_MSGS];
  char tx_ctl[MAX_TX_MSGS][CMSG_SPACE(sizeof(uint16_t))];
} sock_t;

#define CHECK(env, call)                                   \
  do {                                                     \
    if ((call) != napi_ok) {                               \
      napi_throw_error((env), NULL, "Node-API call failed: " #call); \
      return NULL;                                         \
    }                                                      \
  } while (0)

static const char *errno_name(int err) {
  switch (err) {
    case EADDRINUSE: return "EADDRINUSE";
    case EADDRNOTAVAIL: return "EADDRNOTAVAIL";
    case EACCES: return "EACCES";
    case EPERM: return "EPERM";
    case EINVAL: return "EINVAL";
    case EBADF: return "EBADF";
    case ENODEV: return "ENODEV";
    case ENOBUFS: return "ENOBUFS";
    case ENOMEM: return "ENOMEM";
    case EMFILE: return "EMFILE";
    default: return "EIO";
  }
}

/* Throws an Error as Node's system errors read: "<syscall> <CODE> (<text>)", with code and errno. */
static napi_value throw_errno(napi_env env, const char *what, int err) {
  char msg[200];
  snprintf(msg, sizeof msg, "%s %s (%s)", what, errno_name(err), strerror(err));
  napi_value m, e, code, num;
  napi_create_string_utf8(env, msg, NAPI_AUTO_LENGTH, &m);
  napi_create_error(env, NULL, m, &e);
  napi_create_int32(env, -err, &num);
  napi_set_named_property(env, e, "errno", num);
  napi_create_string_utf8(env, errno_name(err), NAPI_AUTO_LENGTH, &code);
  napi_set_named_property(env, e, "code", code);
  napi_throw(env, e);
  return NULL;
}

static int get_u32(napi_env env, napi_value v, uint32_t *out) {
  napi_valuetype t;
  if (napi_typeof(env, v, &t) != napi_ok || t != napi_number) return 0;
  return napi_get_value_uint32(env, v, out) == napi_ok;
}

static int get_bool(napi_env env, napi_value v) {
  bool b = false;
  napi_valuetype t;
  if (napi_typeof(env, v, &t) == napi_ok && t == napi_boolean) napi_get_value_bool(env, v, &b);
  return b;
}

static void free_if_done(sock_t *s) {
  if (s->finalized && s->handle_closed) {
    free(s->rx_area);
    free(s);
  }
}

static void on_handle_closed(uv_handle_t *h) {
  sock_t *s = (sock_t *)h->data;
  s->handle_closed = 1;
  free_if_done(s);
}

static void do_close(sock_t *s) {
  if (s->closed) return;
  s->closed = 1;
  napi_env env = s->env;
  if (s->polling) {
    uv_poll_stop(&s->poll);
    uv_close((uv_handle_t *)&s->poll, on_handle_closed);
  } else {
    s->handle_closed = 1;
  }
  if (s->fd >= 0) close(s->fd);
  s->fd = -1;
  if (!s->finalized) {
    /* The references hold the callbacks (and what they close over): let them go. */
    if (s->on_batch) napi_delete_reference(env, s->on_batch);
    if (s->on_writable) napi_delete_reference(env, s->on_writable);
    if (s->meta_ref) napi_delete_reference(env, s->meta_ref);
    if (s->async) napi_async_destroy(env, s->async);
  }
  s->on_batch = s->on_writable = s->meta_ref = NULL;
  s->async = NULL;
}

static void finalize(napi_env env, void *data, void *hint) {
  sock_t *s = (sock_t *)data;
  if (!s->closed) do_close(s);
  s->finalized = 1;
  free_if_done(s);
}

/* Calls one of the socket's callbacks; an exception it throws becomes an uncaught exception. */
static void call_js(sock_t *s, napi_ref fn_ref, size_t argc, napi_value *argv) {
  napi_env env = s->env;
  napi_value fn, self, res;
  if (!fn_ref || napi_get_reference_value(env, fn_ref, &fn) != napi_ok || !fn) return;
  if (napi_get_reference_value(env, s->self, &self) != napi_ok || !self) napi_get_undefined(env, &self);
  napi_status st = napi_make_callback(env, s->async, self, fn, argc, argv, &res);
  if (st == napi_pending_exception) {
    napi_value e;
    napi_get_and_clear_last_exception(env, &e);
    napi_fatal_exception(env, e);
  }
}

/* One recvmmsg batch (GRO datagrams split), handed to JavaScript in one call. */
static void do_recv(sock_t *s) {
  unsigned n = s->nslots;
  for (unsigned i = 0; i < n; i++) {
    struct msghdr *h = &s->rx_msgs[i].msg_hdr;
    s->rx_iov[i].iov_base = s->rx_area + (size_t)i * s->slot_size;
    s->rx_iov[i].iov_len = s->slot_size;
    h->msg_iov = &s->rx_iov[i];
    h->msg_iovlen = 1;
    h->msg_name = &s->rx_addr[i];
    h->msg_namelen = sizeof(struct sockaddr_in6);
    h->msg_control = s->gro ? s->rx_ctl[i] : NULL;
    h->msg_controllen = s->gro ? sizeof s->rx_ctl[i] : 0;
    h->msg_flags = 0;
    s->rx_msgs[i].msg_len = 0;
  }
  int r;
  do r = recvmmsg(s->fd, s->rx_msgs, n, MSG_DONTWAIT, NULL);
  while (r < 0 && errno == EINTR);
  if (r <= 0) return; /* EAGAIN, or an error the next read reports again (ICMP errors are not queued: no IP_RECVERR) */
  napi_env env = s->env;
  napi_handle_scope scope;
  if (napi_open_handle_scope(env, &scope) != napi_ok) return;
  size_t total = 0;
  for (int i = 0; i < r; i++) {
    if (!(s->rx_msgs[i].msg_hdr.msg_flags & MSG_TRUNC)) total += s->rx_msgs[i].msg_len;
  }
  void *data = NULL;
  napi_value buf;
  if (napi_create_buffer(env, total, &data, &buf) != napi_ok) {
    napi_close_handle_scope(env, scope);
    return;
  }
  uint32_t count = 0, off = 0;
  for (int i = 0; i < r && count < s->meta_cap; i++) {
    struct msghdr *h = &s->rx_msgs[i].msg_hdr;
    uint32_t len = s->rx_msgs[i].msg_len;
    const struct sockaddr_in *a4 = (const struct sockaddr_in *)&s->rx_addr[i];
    const struct sockaddr_in6 *a6 = &s->rx_addr[i];
    int v6 = h->msg_namelen >= sizeof(struct sockaddr_in6) && a6->sin6_family == AF_INET6;
    uint32_t addr = v6 ? a6->sin6_scope_id : h->msg_namelen >= sizeof(struct sockaddr_in) && a4->sin_family == AF_INET ? ntohl(a4->sin_addr.s_addr) : 0;
    uint32_t port = v6 ? ntohs(a6->sin6_port) : ntohs(a4->sin_port);
    if (h->msg_flags & MSG_TRUNC) {
      /* Larger than a slot: reported with length 0 (dropped as malformed by the caller). */
      uint32_t *m = s->meta + (size_t)count * META_WORDS;
      m[0] = off; m[1] = 0; m[2] = addr; m[3] = port;
      if (v6) memcpy(m + 4, &a6->sin6_addr, 16); else memset(m + 4, 0, 16);
      count++;
      continue;
    }
    uint32_t seg = 0;
    if (s->gro) {
      for (struct cmsghdr *c = CMSG_FIRSTHDR(h); c; c = CMSG_NXTHDR(h, c)) {
        if (c->cmsg_level == SOL_UDP && c->cmsg_type == UDP_GRO && c->cmsg_len >= CMSG_LEN(sizeof(int))) {
          int g;
          memcpy(&g, CMSG_DATA(c), sizeof g);
          if (g > 0) seg = (uint32_t)g;
        }
      }
    }
    memcpy((char *)data + off, s->rx_iov[i].iov_base, len);
    if (seg == 0 || seg >= len) seg = len;
    /* An empty datagram is one entry of length 0. */
    uint32_t p = 0;
    do {
      if (count >= s->meta_cap) break;
      uint32_t l = len - p < seg ? len - p : seg;
      uint32_t *m = s->meta + (size_t)count * META_WORDS;
      m[0] = off + p; m[1] = l; m[2] = addr; m[3] = port;
      if (v6) memcpy(m + 4, &a6->sin6_addr, 16); else memset(m + 4, 0, 16);
      count++;
      p += l;
    } while (p < len);
    off += len;
  }
  napi_value argv[2];
  argv[0] = buf;
  napi_create_uint32(env, count, &argv[1]);
  call_js(s, s->on_batch, 2, argv);
  napi_close_handle_scope(env, scope);
}

static void update_poll(sock_t *s);

static void on_poll(uv_poll_t *h, int status, int events) {
  sock_t *s = (sock_t *)h->data;
  if (s->closed) return;
  if (status < 0) {
    /* A descriptor error: reading reports (and clears) it. */
    events = UV_READABLE;
  }
  if ((events & UV_WRITABLE) && s->want_writable) {
    s->want_writable = 0;
    update_poll(s);
    napi_handle_scope scope;
    if (napi_open_handle_scope(s->env, &scope) == napi_ok) {
      call_js(s, s->on_writable, 0, NULL);
      napi_close_handle_scope(s->env, scope);
    }
    if (s->closed) return;
  }
  if (events & UV_READABLE) do_recv(s);
}

static void update_poll(sock_t *s) {
  if (s->closed || !s->polling) return;
  uv_poll_start(&s->poll, UV_READABLE | (s->want_writable ? UV_WRITABLE : 0), on_poll);
}

static sock_t *unwrap(napi_env env, napi_callback_info info, size_t *argc, napi_value *argv) {
  napi_value self;
  void *p = NULL;
  if (napi_get_cb_info(env, info, argc, argv, &self, NULL) != napi_ok) return NULL;
  if (napi_unwrap(env, self, &p) != napi_ok || !p) {
    napi_throw_type_error(env, NULL, "not a UdpSocket");
    return NULL;
  }
  return (sock_t *)p;
}

/* new UdpSocket(onBatch(buffer, count), onWritable()) */
static napi_value Ctor(napi_env env, napi_callback_info info) {
  size_t argc = 2;
  napi_value argv[2], self;
  CHECK(env, napi_get_cb_info(env, info, &argc, argv, &self, NULL));
  napi_valuetype t0, t1;
  if (argc < 2 || napi_typeof(env, argv[0], &t0) != napi_ok || napi_typeof(env, argv[1], &t1) != napi_ok || t0 != napi_function || t1 != napi_function) {
    napi_throw_type_error(env, NULL, "UdpSocket(onBatch, onWritable): two functions expected");
    return NULL;
  }
  sock_t *s = calloc(1, sizeof *s);
  if (!s) {
    napi_throw_error(env, NULL, "out of memory");
    return NULL;
  }
  s->env = env;
  s->fd = -1;
  s->handle_closed = 1;
  napi_create_reference(env, argv[0], 1, &s->on_batch);
  napi_create_reference(env, argv[1], 1, &s->on_writable);
  napi_value name;
  napi_create_string_utf8(env, "softrdma:udp", NAPI_AUTO_LENGTH, &name);
  napi_async_init(env, self, name, &s->async);
  if (napi_wrap(env, self, s, finalize, NULL, &s->self) != napi_ok) {
    free(s);
    napi_throw_error(env, NULL, "napi_wrap failed");
    return NULL;
  }
  return self;
}

/*
 * bind(address, port, rcvbuf, sndbuf, reuseAddr, gro, slotSize, slots[, scopeId]) ->
 *   { port, gro, gso, rcvbuf, meta, metaWords }
 * address is an IPv4 address as a 32-bit number (a.b.c.d = a << 24 | ...), or the 16 octets of
 * an IPv6 address (a Uint8Array; scopeId: its interface index, for a link-local address).
 * Throws on failure.
 */
static napi_value Bind(napi_env env, napi_callback_info info) {
  size_t argc = 9;
  napi_value argv[9];
  sock_t *s = unwrap(env, info, &argc, argv);
  if (!s) return NULL;
  uint32_t addr = 0, port, rcv, snd, slot, slots, scope = 0;
  uint8_t addr6[16];
  int family = AF_INET;
  bool a_ta = false;
  if (argc >= 1 && napi_is_typedarray(env, argv[0], &a_ta) == napi_ok && a_ta) {
    napi_typedarray_type at;
    size_t alen;
    void *ad;
    if (napi_get_typedarray_info(env, argv[0], &at, &alen, &ad, NULL, NULL) != napi_ok || at != napi_uint8_array || alen != 16) {
      napi_throw_range_error(env, NULL, "bind: an IPv6 address is 16 octets");
      return NULL;
    }
    memcpy(addr6, ad, 16);
    family = AF_INET6;
    if (argc >= 9 && !get_u32(env, argv[8], &scope)) scope = 0;
  }
  if (argc < 8 || (family == AF_INET && !get_u32(env, argv[0], &addr)) || !get_u32(env, argv[1], &port) || port > 65535 || !get_u32(env, argv[2], &rcv) ||
      !get_u32(env, argv[3], &snd) || !get_u32(env, argv[6], &slot) || !get_u32(env, argv[7], &slots) || slot < 64 || slot > 65536 ||
      slots < 1 || slots > MAX_RX_SLOTS) {
    napi_throw_range_error(env, NULL, "bind(address, port, rcvbuf, sndbuf, reuseAddr, gro, slotSize 64..65536, slots 1..64)");
    return NULL;
  }
  if (s->fd >= 0 || s->closed) {
    napi_throw_error(env, NULL, "socket already bound or closed");
    return NULL;
  }
  int reuse = get_bool(env, argv[4]);
  int want_gro = get_bool(env, argv[5]);
  int fd = socket(family, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  if (fd < 0) return throw_errno(env, "socket", errno);
  int one = 1, v;
  if (reuse) setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  v = (int)rcv;
  setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &v, sizeof v);
  v = (int)snd;
  setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &v, sizeof v);
  struct sockaddr_in6 sa6;
  struct sockaddr_in sa;
  memset(&sa, 0, sizeof sa);
  memset(&sa6, 0, sizeof sa6);
  struct sockaddr *sp = (struct sockaddr *)&sa;
  socklen_t sl = sizeof sa;
  if (family == AF_INET) {
    v = IP_PMTUDISC_DO;
    if (setsockopt(fd, IPPROTO_IP, IP_MTU_DISCOVER, &v, sizeof v) < 0) {
      int e = errno;
      close(fd);
      return throw_errno(env, "setsockopt(IP_MTU_DISCOVER)", e);
    }
    sa.sin_family = AF_INET;
    sa.sin_port = htons((uint16_t)port);
    sa.sin_addr.s_addr = htonl(addr);
  } else {
    setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &one, sizeof one);
    v = IPV6_PMTUDISC_DO;
    if (setsockopt(fd, IPPROTO_IPV6, IPV6_MTU_DISCOVER, &v, sizeof v) < 0 || setsockopt(fd, IPPROTO_IPV6, IPV6_DONTFRAG, &one, sizeof one) < 0) {
      int e = errno;
      close(fd);
      return throw_errno(env, "setsockopt(IPV6_DONTFRAG)", e);
    }
    setsockopt(fd, SOL_UDP, UDP_NO_CHECK6_RX, &one, sizeof one);
    v = 0;
    setsockopt(fd, IPPROTO_IPV6, IPV6_AUTOFLOWLABEL, &v, sizeof v);
    sa6.sin6_family = AF_INET6;
    sa6.sin6_port = htons((uint16_t)port);
    memcpy(&sa6.sin6_addr, addr6, 16);
    sa6.sin6_scope_id = scope;
    sp = (struct sockaddr *)&sa6;
    sl = sizeof sa6;
  }
  if (bind(fd, sp, sl) < 0) {
    int e = errno;
    close(fd);
    return throw_errno(env, "bind", e);
  }
  getsockname(fd, sp, &sl);
  uint32_t bound_port = family == AF_INET ? ntohs(sa.sin_port) : ntohs(sa6.sin6_port);
  int gro = 0;
  if (want_gro && slot == 65536 && setsockopt(fd, SOL_UDP, UDP_GRO, &one, sizeof one) == 0) gro = 1;
  int zero = 0;
  int gso = setsockopt(fd, SOL_UDP, UDP_SEGMENT, &zero, sizeof zero) == 0;
  int got = 0;
  sl = sizeof got;
  getsockopt(fd, SOL_SOCKET, SO_RCVBUF, &got, &sl);

  s->nslots = slots;
  s->slot_size = slot;
  s->rx_area = malloc((size_t)slots * slot);
  s->meta_cap = slots * (gro ? MAX_GRO_SEGS : 1);
  napi_value ab, meta;
  void *mdata;
  if (!s->rx_area || napi_create_arraybuffer(env, (size_t)s->meta_cap * META_WORDS * 4, &mdata, &ab) != napi_ok ||
      napi_create_typedarray(env, napi_uint32_array, (size_t)s->meta_cap * META_WORDS, ab, 0, &meta) != napi_ok) {
    close(fd);
    napi_throw_error(env, NULL, "out of memory");
    return NULL;
  }
  s->meta = mdata;
  napi_create_reference(env, meta, 1, &s->meta_ref);
  s->fd = fd;
  s->gro = gro;
  s->family = family;
  uv_loop_t *loop;
  if (napi_get_uv_event_loop(env, &loop) != napi_ok || uv_poll_init_socket(loop, &s->poll, fd) != 0) {
    napi_throw_error(env, NULL, "uv_poll_init_socket failed");
    return NULL;
  }
  s->poll.data = s;
  s->polling = 1;
  s->handle_closed = 0;
  update_poll(s);

  napi_value res, x;
  napi_create_object(env, &res);
  napi_create_uint32(env, bound_port, &x);
  napi_set_named_property(env, res, "port", x);
  napi_create_uint32(env, META_WORDS, &x);
  napi_set_named_property(env, res, "metaWords", x);
  napi_get_boolean(env, gro, &x);
  napi_set_named_property(env, res, "gro", x);
  napi_get_boolean(env, gso, &x);
  napi_set_named_property(env, res, "gso", x);
  napi_create_int32(env, got, &x);
  napi_set_named_property(env, res, "rcvbuf", x);
  napi_set_named_property(env, res, "meta", meta);
  napi_create_int32(env, fd, &x);
  napi_set_named_property(env, res, "fd", x);
  return res;
}

/*
 * send(packets, msgs, first, end) -> messages sent (>= 0) or -errno when the first failed.
 * packets: an Array of Uint8Array; msgs: a Uint32Array of 5 words per message (destination
 * address, port, index of its first packet, packet count, segment size). A message of several
 * packets is one datagram per packet through UDP_SEGMENT (segment size = its first packet's
 * length; every packet but the last must have it). Messages first..end-1 are sent (at most 64).
 * An IPv6 socket takes addrs6, 16 octets per message (message first+i at (first+i)*16), and the
 * message's address word is the destination's scope id.
 */
static napi_value Send(napi_env env, napi_callback_info info) {
  size_t argc = 5;
  napi_value argv[5];
  sock_t *s = unwrap(env, info, &argc, argv);
  if (!s) return NULL;
  bool is_arr = false, is_ta = false;
  const uint8_t *a6 = NULL;
  size_t a6len = 0;
  uint32_t first, end, npk;
  if (argc < 4 || napi_is_array(env, argv[0], &is_arr) != napi_ok || !is_arr || napi_is_typedarray(env, argv[1], &is_ta) != napi_ok || !is_ta ||
      !get_u32(env, argv[2], &first) || !get_u32(env, argv[3], &end) || end < first) {
    napi_throw_type_error(env, NULL, "send(packets: Uint8Array[], msgs: Uint32Array, first, end)");
    return NULL;
  }
  napi_typedarray_type tt;
  size_t mlen;
  void *mdata;
  if (napi_get_typedarray_info(env, argv[1], &tt, &mlen, &mdata, NULL, NULL) != napi_ok || tt != napi_uint32_array || (size_t)end * 5 > mlen) {
    napi_throw_range_error(env, NULL, "send: msgs must be a Uint32Array of 5 words per message");
    return NULL;
  }
  napi_get_array_length(env, argv[0], &npk);
  if (s->closed || s->fd < 0) return throw_errno(env, "send", EBADF);
  if (s->family == AF_INET6) {
    bool ta6 = false;
    napi_typedarray_type t6;
    void *d6;
    if (argc < 5 || napi_is_typedarray(env, argv[4], &ta6) != napi_ok || !ta6 || napi_get_typedarray_info(env, argv[4], &t6, &a6len, &d6, NULL, NULL) != napi_ok ||
        t6 != napi_uint8_array || a6len < (size_t)end * 16) {
      napi_throw_range_error(env, NULL, "send: an IPv6 socket needs 16 octets of address per message");
      return NULL;
    }
    a6 = d6;
  }
  const uint32_t *mw = mdata;
  uint32_t count = end - first;
  if (count > MAX_TX_MSGS) count = MAX_TX_MSGS;
  size_t iov = 0;
  for (uint32_t i = 0; i < count; i++) {
    const uint32_t *w = mw + (size_t)(first + i) * 5;
    uint32_t p0 = w[2], np = w[3], seg = w[4];
    if (w[1] > 65535 || np < 1 || p0 > npk || np > npk - p0 || iov + np > MAX_TX_IOV) {
      if (i == 0) {
        napi_throw_range_error(env, NULL, "send: bad message (port, packet range or more than 1024 packets)");
        return NULL;
      }
      count = i;
      break;
    }
    struct msghdr *h = &s->tx_msgs[i].msg_hdr;
    memset(h, 0, sizeof *h);
    struct sockaddr_in6 *sa6 = &s->tx_addr[i];
    memset(sa6, 0, sizeof *sa6);
    if (a6) {
      sa6->sin6_family = AF_INET6;
      sa6->sin6_port = htons((uint16_t)w[1]);
      memcpy(&sa6->sin6_addr, a6 + (size_t)(first + i) * 16, 16);
      sa6->sin6_scope_id = w[0];
      h->msg_namelen = sizeof *sa6;
    } else {
      struct sockaddr_in *sa = (struct sockaddr_in *)sa6;
      sa->sin_family = AF_INET;
      sa->sin_port = htons((uint16_t)w[1]);
      sa->sin_addr.s_addr = htonl(w[0]);
      h->msg_namelen = sizeof *sa;
    }
    h->msg_name = sa6;
    h->msg_iov = &s->tx_iov[iov];
    h->msg_iovlen = np;
    for (uint32_t k = 0; k < np; k++) {
      napi_value e;
      bool ta = false;
      void *d;
      size_t len;
      if (napi_get_element(env, argv[0], p0 + k, &e) != napi_ok || napi_is_typedarray(env, e, &ta) != napi_ok || !ta ||
          napi_get_typedarray_info(env, e, &tt, &len, &d, NULL, NULL) != napi_ok || tt != napi_uint8_array) {
        napi_throw_type_error(env, NULL, "send: every packet must be a Uint8Array");
        return NULL;
      }
      s->tx_iov[iov + k].iov_base = d;
      s->tx_iov[iov + k].iov_len = len;
    }
    if (np > 1) {
      if (seg == 0 || seg > 65535) {
        napi_throw_range_error(env, NULL, "send: a message of several packets needs a segment size");
        return NULL;
      }
      h->msg_control = s->tx_ctl[i];
      h->msg_controllen = CMSG_SPACE(sizeof(uint16_t));
      struct cmsghdr *c = CMSG_FIRSTHDR(h);
      c->cmsg_level = SOL_UDP;
      c->cmsg_type = UDP_SEGMENT;
      c->cmsg_len = CMSG_LEN(sizeof(uint16_t));
      uint16_t g = (uint16_t)seg;
      memcpy(CMSG_DATA(c), &g, sizeof g);
    }
    iov += np;
  }
  int r;
  do r = sendmmsg(s->fd, s->tx_msgs, count, MSG_DONTWAIT);
  while (r < 0 && errno == EINTR);
  napi_value out;
  napi_create_int32(env, r < 0 ? -errno : r, &out);
  return out;
}

/* pollWritable(): calls onWritable once the socket can take more (after an EAGAIN). */
static napi_value PollWritable(napi_env env, napi_callback_info info) {
  size_t argc = 0;
  sock_t *s = unwrap(env, info, &argc, NULL);
  if (!s) return NULL;
  if (!s->closed && !s->want_writable) {
    s->want_writable = 1;
    update_poll(s);
  }
  return NULL;
}

/* membership(group, iface, join): IP_ADD_MEMBERSHIP / IP_DROP_MEMBERSHIP. Throws on failure. */
static napi_value Membership(napi_env env, napi_callback_info info) {
  size_t argc = 3;
  napi_value argv[3];
  sock_t *s = unwrap(env, info, &argc, argv);
  if (!s) return NULL;
  uint32_t g, i;
  if (argc < 3 || !get_u32(env, argv[0], &g) || !get_u32(env, argv[1], &i)) {
    napi_throw_type_error(env, NULL, "membership(group, iface, join)");
    return NULL;
  }
  if (s->fd < 0) return throw_errno(env, "membership", EBADF);
  struct ip_mreq m;
  m.imr_multiaddr.s_addr = htonl(g);
  m.imr_interface.s_addr = htonl(i);
  if (setsockopt(s->fd, IPPROTO_IP, get_bool(env, argv[2]) ? IP_ADD_MEMBERSHIP : IP_DROP_MEMBERSHIP, &m, sizeof m) < 0)
    return throw_errno(env, "setsockopt(IP_ADD_MEMBERSHIP)", errno);
  return NULL;
}

static napi_value Close(napi_env env, napi_callback_info info) {
  size_t argc = 0;
  sock_t *s = unwrap(env, info, &argc, NULL);
  if (!s) return NULL;
  do_close(s);
  return NULL;
}

/* setsockoptInt(fd, level, name, value): an int option on any descriptor (the dgram fallback's). */
static napi_value SetsockoptInt(napi_env env, napi_callback_info info) {
  size_t argc = 4;
  napi_value argv[4];
  CHECK(env, napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  int32_t a[4];
  for (int k = 0; k < 4; k++) {
    napi_valuetype t;
    if ((size_t)k >= argc || napi_typeof(env, argv[k], &t) != napi_ok || t != napi_number) {
      napi_throw_type_error(env, NULL, "setsockoptInt(fd, level, name, value): four numbers expected");
      return NULL;
    }
    napi_get_value_int32(env, argv[k], &a[k]);
  }
  if (setsockopt(a[0], a[1], a[2], &a[3], sizeof a[3]) < 0) return throw_errno(env, "setsockopt", errno);
  return NULL;
}

/* features() -> { gso, gro }: whether this kernel takes UDP_SEGMENT and UDP_GRO (probed on a fresh socket). */
static napi_value Features(napi_env env, napi_callback_info info) {
  int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  int one = 1, zero = 0, gso = 0, gro = 0;
  if (fd >= 0) {
    gso = setsockopt(fd, SOL_UDP, UDP_SEGMENT, &zero, sizeof zero) == 0;
    gro = setsockopt(fd, SOL_UDP, UDP_GRO, &one, sizeof one) == 0;
    close(fd);
  }
  napi_value res, x;
  napi_create_object(env, &res);
  napi_get_boolean(env, gso, &x);
  napi_set_named_property(env, res, "gso", x);
  napi_get_boolean(env, gro, &x);
  napi_set_named_property(env, res, "gro", x);
  return res;
}

static napi_value Init(napi_env env, napi_value exports) {
  napi_property_descriptor methods[] = {
    {"bind", NULL, Bind, NULL, NULL, NULL, napi_default_method, NULL},
    {"send", NULL, Send, NULL, NULL, NULL, napi_default_method, NULL},
    {"pollWritable", NULL, PollWritable, NULL, NULL, NULL, napi_default_method, NULL},
    {"membership", NULL, Membership, NULL, NULL, NULL, napi_default_method, NULL},
    {"close", NULL, Close, NULL, NULL, NULL, napi_default_method, NULL},
  };
  napi_value cls, fn;
  CHECK(env, napi_define_class(env, "UdpSocket", NAPI_AUTO_LENGTH, Ctor, NULL, sizeof methods / sizeof methods[0], methods, &cls));
  CHECK(env, napi_set_named_property(env, exports, "UdpSocket", cls));
  CHECK(env, napi_create_function(env, "setsockoptInt", NAPI_AUTO_LENGTH, SetsockoptInt, NULL, &fn));
  CHECK(env, napi_set_named_property(env, exports, "setsockoptInt", fn));
  CHECK(env, napi_create_function(env, "features", NAPI_AUTO_LENGTH, Features, NULL, &fn));
  CHECK(env, napi_set_named_property(env, exports, "features", fn));
  napi_value v;
  napi_create_uint32(env, MAX_TX_MSGS, &v);
  napi_set_named_property(env, exports, "MAX_TX_MSGS", v);
  napi_create_uint32(env, MAX_TX_IOV, &v);
  napi_set_named_property(env, exports, "MAX_TX_IOV", v);
  crc32c_register(env, exports);
  return exports;
}

NAPI_MODULE(NODE_GYP_MODULE_NAME, Init)
