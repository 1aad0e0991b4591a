/**
 * errno for the ibverbs / rdma_cm face: Linux errno numbers, the module-level `errno` that
 * pointer-returning calls set (C's thread-local `errno`; Node runs the verbs on one thread), and
 * the table of what an iWARP device answers for the parts of the manual it cannot provide.
 *
 * Return-value convention (full text in `api.ts` and `docs/spec-notes.md`, "ibverbs / rdma_cm"):
 * - `ibv_*` calls returning `int`: `0` or a **positive** errno (rdma-core man pages: "returns 0
 *   on success, or the value of errno on failure"); `errno` is set as well.
 * - `rdma_*` calls returning `int`: `0` or `-1` with `errno` set (librdmacm, and the manual).
 * - calls returning a pointer in C: the object or `null` with `errno` set.
 * - `ibv_poll_cq`: the count, or a negative errno (`-EINVAL`, ...).
 *
 * @module
 */

/** Linux errno values (asm-generic/errno-base.h, asm-generic/errno.h; same on x86-64 and arm64). */
export const EPERM = 1;
export const ENOENT = 2;
export const EINTR = 4;
export const EIO = 5;
export const ENXIO = 6;
export const EBADF = 9;
export const EAGAIN = 11;
export const EWOULDBLOCK = EAGAIN;
export const ENOMEM = 12;
export const EACCES = 13;
export const EFAULT = 14;
export const EBUSY = 16;
export const EEXIST = 17;
export const ENODEV = 19;
export const EINVAL = 22;
export const ENOSPC = 28;
export const ERANGE = 34;
export const ENOSYS = 38;
export const ENODATA = 61;
export const ETIME = 62;
export const EPROTO = 71;
export const EOVERFLOW = 75;
export const EMSGSIZE = 90;
export const EPROTONOSUPPORT = 93;
export const EOPNOTSUPP = 95;
export const ENOTSUP = EOPNOTSUPP;
export const EAFNOSUPPORT = 97;
export const EADDRINUSE = 98;
export const EADDRNOTAVAIL = 99;
export const ENETDOWN = 100;
export const ENETUNREACH = 101;
export const ECONNABORTED = 103;
export const ECONNRESET = 104;
export const ENOBUFS = 105;
export const EISCONN = 106;
export const ENOTCONN = 107;
export const ETIMEDOUT = 110;
export const ECONNREFUSED = 111;
export const EHOSTDOWN = 112;
export const EHOSTUNREACH = 113;
export const EALREADY = 114;
export const EINPROGRESS = 115;
export const ECANCELED = 125;

/** Symbolic name of every errno above (`EAGAIN` for 11, `EOPNOTSUPP` for 95). */
export const ERRNO_NAMES: Readonly<Record<number, string>> = Object.freeze({
  [EPERM]: 'EPERM',
  [ENOENT]: 'ENOENT',
  [EINTR]: 'EINTR',
  [EIO]: 'EIO',
  [ENXIO]: 'ENXIO',
  [EBADF]: 'EBADF',
  [EAGAIN]: 'EAGAIN',
  [ENOMEM]: 'ENOMEM',
  [EACCES]: 'EACCES',
  [EFAULT]: 'EFAULT',
  [EBUSY]: 'EBUSY',
  [EEXIST]: 'EEXIST',
  [ENODEV]: 'ENODEV',
  [EINVAL]: 'EINVAL',
  [ENOSPC]: 'ENOSPC',
  [ERANGE]: 'ERANGE',
  [ENOSYS]: 'ENOSYS',
  [ENODATA]: 'ENODATA',
  [ETIME]: 'ETIME',
  [EPROTO]: 'EPROTO',
  [EOVERFLOW]: 'EOVERFLOW',
  [EMSGSIZE]: 'EMSGSIZE',
  [EPROTONOSUPPORT]: 'EPROTONOSUPPORT',
  [EOPNOTSUPP]: 'EOPNOTSUPP',
  [EAFNOSUPPORT]: 'EAFNOSUPPORT',
  [EADDRINUSE]: 'EADDRINUSE',
  [EADDRNOTAVAIL]: 'EADDRNOTAVAIL',
  [ENETDOWN]: 'ENETDOWN',
  [ENETUNREACH]: 'ENETUNREACH',
  [ECONNABORTED]: 'ECONNABORTED',
  [ECONNRESET]: 'ECONNRESET',
  [ENOBUFS]: 'ENOBUFS',
  [EISCONN]: 'EISCONN',
  [ENOTCONN]: 'ENOTCONN',
  [ETIMEDOUT]: 'ETIMEDOUT',
  [ECONNREFUSED]: 'ECONNREFUSED',
  [EHOSTDOWN]: 'EHOSTDOWN',
  [EHOSTUNREACH]: 'EHOSTUNREACH',
  [EALREADY]: 'EALREADY',
  [EINPROGRESS]: 'EINPROGRESS',
  [ECANCELED]: 'ECANCELED',
});

/** glibc's `strerror` text of every errno above (Linux, C locale). */
const ERRNO_TEXT: Readonly<Record<number, string>> = Object.freeze({
  [EPERM]: 'Operation not permitted',
  [ENOENT]: 'No such file or directory',
  [EINTR]: 'Interrupted system call',
  [EIO]: 'Input/output error',
  [ENXIO]: 'No such device or address',
  [EBADF]: 'Bad file descriptor',
  [EAGAIN]: 'Resource temporarily unavailable',
  [ENOMEM]: 'Cannot allocate memory',
  [EACCES]: 'Permission denied',
  [EFAULT]: 'Bad address',
  [EBUSY]: 'Device or resource busy',
  [EEXIST]: 'File exists',
  [ENODEV]: 'No such device',
  [EINVAL]: 'Invalid argument',
  [ENOSPC]: 'No space left on device',
  [ERANGE]: 'Numerical result out of range',
  [ENOSYS]: 'Function not implemented',
  [ENODATA]: 'No data available',
  [ETIME]: 'Timer expired',
  [EPROTO]: 'Protocol error',
  [EOVERFLOW]: 'Value too large for defined data type',
  [EMSGSIZE]: 'Message too long',
  [EPROTONOSUPPORT]: 'Protocol not supported',
  [EOPNOTSUPP]: 'Operation not supported',
  [EAFNOSUPPORT]: 'Address family not supported by protocol',
  [EADDRINUSE]: 'Address already in use',
  [EADDRNOTAVAIL]: 'Cannot assign requested address',
  [ENETDOWN]: 'Network is down',
  [ENETUNREACH]: 'Network is unreachable',
  [ECONNABORTED]: 'Software caused connection abort',
  [ECONNRESET]: 'Connection reset by peer',
  [ENOBUFS]: 'No buffer space available',
  [EISCONN]: 'Transport endpoint is already connected',
  [ENOTCONN]: 'Transport endpoint is not connected',
  [ETIMEDOUT]: 'Connection timed out',
  [ECONNREFUSED]: 'Connection refused',
  [EHOSTDOWN]: 'Host is down',
  [EHOSTUNREACH]: 'No route to host',
  [EALREADY]: 'Operation already in progress',
  [EINPROGRESS]: 'Operation now in progress',
  [ECANCELED]: 'Operation canceled',
});

/** The symbolic name of an errno (`'EADDRINUSE'` for 98); a negative value is read as its magnitude (CM event status). */
export function errnoName(errnum: number): string {
  return ERRNO_NAMES[Math.abs(errnum)] ?? `errno ${errnum}`;
}

/** C's `strerror(errnum)`: glibc's text, e.g. `'Address already in use'` for 98. */
export function strerror(errnum: number): string {
  return ERRNO_TEXT[Math.abs(errnum)] ?? `Unknown error ${errnum}`;
}

/**
 * An errno as a person reads it: name and text, `'EADDRINUSE (Address already in use)'`.
 * rdma-core has no such call (C programs print `strerror(errno)` or use `perror`); this is the
 * one place the CLI and the examples turn an errno into words.
 */
export function errnoString(errnum: number): string {
  return `${errnoName(errnum)} (${strerror(errnum)})`;
}

let currentErrno = 0;
let currentDetail: string | null = null;

/**
 * The `errno` left by the last failing verbs call (C's `errno`). Like C, successful calls do not
 * clear it: read it only right after a call reported failure (null, -1 or a non-zero return).
 */
export function getErrno(): number {
  return currentErrno;
}

/**
 * Sets `errno` (for the implementation of the verbs; C code may also assign `errno = 0`), with
 * the failing call's own words about what was wrong when it has them. Setting an errno without
 * `detail` clears the previous detail, so a message never outlives the failure it explains.
 */
export function setErrno(value: number, detail?: string): void {
  currentErrno = value;
  currentDetail = detail ?? null;
}

/** What {@link softrdmaLastError} returns. */
export interface SoftrdmaError {
  /** The errno, as {@link getErrno} returns it. */
  readonly errno: number;
  /** Its symbolic name, `'EINVAL'`. */
  readonly name: string;
  /**
   * What went wrong, in words: the failing call's own explanation when it gave one
   * (`'ibv_reg_mr: addr is a string; expected a Uint8Array (EINVAL)'`), otherwise the errno's
   * name and `strerror` text.
   */
  readonly message: string;
}

/**
 * softrdma extension: the last failure of a verbs or rdma_cm call as errno, name and message.
 * The calls keep C's return conventions (0 / errno / -1 / null); this is the "why". Read it,
 * like `errno`, right after a call reported failure.
 */
export function softrdmaLastError(): SoftrdmaError {
  const e = currentErrno;
  return { errno: e, name: errnoName(e), message: currentDetail ?? errnoString(e) };
}

/**
 * What softrdma's iWARP device answers for the features of the manual iWARP cannot provide
 * (UD/UC, multicast, address handles, atomics, immediate data, APM, XRC, DC and the other
 * experimental verbs). Key: the function name, or `function:qualifier` when only some
 * arguments are unsupported (a QP type, an opcode, a mask bit). Value: the positive errno — returned
 * directly by `ibv_*` int calls, stored in `errno` by pointer calls (which return `null`) and by
 * `rdma_*` calls (which return -1). Each entry's provenance is in {@link IWARP_UNSUPPORTED_SOURCE}.
 */
export const IWARP_UNSUPPORTED: Readonly<Record<string, number>> = Object.freeze({
  // QP types: iWARP has RC only.
  'ibv_create_qp:IBV_QPT_UC': EOPNOTSUPP,
  'ibv_create_qp:IBV_QPT_UD': EOPNOTSUPP,
  'ibv_create_qp:IBV_QPT_RAW_PACKET': EOPNOTSUPP,
  'ibv_create_qp:IBV_QPT_XRC_SEND': EOPNOTSUPP,
  'ibv_create_qp:IBV_QPT_XRC_RECV': EOPNOTSUPP,
  'ibv_create_qp:IBV_QPT_XRC': EOPNOTSUPP,
  'rdma_create_qp:IBV_QPT_UD': EOPNOTSUPP,
  'rdma_create_ep:IBV_QPT_UD': EOPNOTSUPP,
  // Address handles (UD only).
  ibv_create_ah: EOPNOTSUPP,
  ibv_destroy_ah: EOPNOTSUPP,
  ibv_init_ah_from_wc: EOPNOTSUPP,
  ibv_create_ah_from_wc: EOPNOTSUPP,
  // Multicast (UD only).
  ibv_attach_mcast: EOPNOTSUPP,
  ibv_detach_mcast: EOPNOTSUPP,
  rdma_join_multicast: ENOSYS,
  rdma_join_multicast_ex: ENOSYS,
  rdma_leave_multicast: EADDRNOTAVAIL,
  // UD helpers and service lookup (RDMA_PS_UDP).
  rdma_post_ud_send: EOPNOTSUPP,
  'rdma_connect:RDMA_PS_UDP': EOPNOTSUPP,
  // Work-request opcodes a connection without RFC 7306 (a Linux siw peer) cannot carry; between
  // softrdma peers they work (docs/spec-notes.md, "Atomics and immediate data").
  'ibv_post_send:IBV_WR_RDMA_WRITE_WITH_IMM': EINVAL,
  'ibv_post_send:IBV_WR_SEND_WITH_IMM': EINVAL,
  'ibv_post_send:IBV_WR_ATOMIC_CMP_AND_SWP': EINVAL,
  'ibv_post_send:IBV_WR_ATOMIC_FETCH_AND_ADD': EINVAL,
  'ibv_post_send:IBV_WR_TSO': EINVAL,
  'ibv_post_send:IBV_WR_DRIVER1': EINVAL,
  'ibv_post_send:IBV_WR_FLUSH': EINVAL,
  'ibv_post_send:IBV_WR_ATOMIC_WRITE': EINVAL,
  // An iWARP QP is bound to a TCP stream that only the CM can set up: no RTS by hand.
  'ibv_modify_qp:IBV_QPS_RTS_UNCONNECTED': EINVAL,
  // Automatic path migration (alternate paths are an IB notion).
  'ibv_modify_qp:IBV_QP_ALT_PATH': EOPNOTSUPP,
  'ibv_modify_qp:IBV_QP_PATH_MIG_STATE': EOPNOTSUPP,
  // IB-only rdma_cm option.
  'rdma_set_option:RDMA_OPTION_IB_PATH': EINVAL,
  // Legacy Mellanox OFED XRC (manual §4.4.8-4.4.14, §4.6.3): absent from rdma-core.
  ibv_open_xrc_domain: ENOSYS,
  ibv_create_xrc_srq: ENOSYS,
  ibv_close_xrc_domain: ENOSYS,
  ibv_create_xrc_rcv_qp: ENOSYS,
  ibv_modify_xrc_rcv_qp: ENOSYS,
  ibv_query_xrc_rcv_qp: ENOSYS,
  ibv_reg_xrc_rcv_qp: ENOSYS,
  ibv_unreg_xrc_rcv_qp: ENOSYS,
  // Mellanox OFED experimental verbs (manual §4.8, §8.6-8.9): absent from rdma-core.
  ibv_exp_create_dct: ENOSYS,
  ibv_exp_destroy_dct: ENOSYS,
  ibv_exp_query_dct: ENOSYS,
  ibv_exp_arm_dct: ENOSYS,
  ibv_exp_reg_mr: ENOSYS,
  ibv_exp_create_mr: ENOSYS,
  ibv_exp_query_mkey: ENOSYS,
  ibv_exp_alloc_mkey_list_memory: ENOSYS,
  ibv_exp_dealloc_mkey_list_memory: ENOSYS,
});

/**
 * Where each {@link IWARP_UNSUPPORTED} value comes from:
 * - `siw`: the Linux soft-iWARP driver (kernel `drivers/infiniband/sw/siw/siw_verbs.c`, or the
 *   rdma-core provider `providers/siw/siw.c`) returns exactly this value;
 * - `rdma-core`: siw's provider does not implement the verb, so rdma-core's fallback
 *   (`libibverbs/dummy_ops.c`) answers it;
 * - `kernel cma`: the kernel rdma_cm (`drivers/infiniband/core/cma.c`) answers it for iWARP;
 * - `librdmacm`: the user-space library answers it;
 * - `softrdma`: our choice, where real iWARP stacks differ or were not verified (reason given).
 */
export const IWARP_UNSUPPORTED_SOURCE: Readonly<Record<string, string>> = Object.freeze({
  'ibv_create_qp:IBV_QPT_UC': 'siw: siw_create_qp "only RC QP\'s supported" → -EOPNOTSUPP',
  'ibv_create_qp:IBV_QPT_UD': 'siw: siw_create_qp → -EOPNOTSUPP',
  'ibv_create_qp:IBV_QPT_RAW_PACKET': 'siw: siw_create_qp → -EOPNOTSUPP',
  'ibv_create_qp:IBV_QPT_XRC_SEND': 'siw: siw_create_qp → -EOPNOTSUPP',
  'ibv_create_qp:IBV_QPT_XRC_RECV': 'siw: siw_create_qp → -EOPNOTSUPP',
  'ibv_create_qp:IBV_QPT_XRC': 'softrdma: legacy OFED type 5, treated like the other non-RC types',
  'rdma_create_qp:IBV_QPT_UD': 'siw: the QP is created through ibv_create_qp → EOPNOTSUPP',
  'rdma_create_ep:IBV_QPT_UD': 'siw: rdma_create_ep creates the QP through rdma_create_qp → EOPNOTSUPP',
  ibv_create_ah: 'rdma-core: dummy_ops create_ah sets errno = EOPNOTSUPP, returns NULL',
  ibv_destroy_ah: 'rdma-core: dummy_ops destroy_ah returns EOPNOTSUPP',
  ibv_init_ah_from_wc: 'softrdma: rdma-core computes it without the provider, but there are no UD completions on iWARP',
  ibv_create_ah_from_wc: 'rdma-core: ends in create_ah → NULL, errno EOPNOTSUPP',
  ibv_attach_mcast: 'rdma-core: dummy_ops attach_mcast returns EOPNOTSUPP (not ENOSYS)',
  ibv_detach_mcast: 'rdma-core: dummy_ops detach_mcast returns EOPNOTSUPP',
  rdma_join_multicast: 'kernel cma: rdma_join_multicast → -ENOSYS for a transport without IB/RoCE multicast',
  rdma_join_multicast_ex: 'kernel cma: rdma_join_multicast → -ENOSYS for a transport without IB/RoCE multicast',
  rdma_leave_multicast: 'librdmacm: no joined group matches the address → ERR(EADDRNOTAVAIL)',
  rdma_post_ud_send: 'softrdma: on siw the RC QP ignores wr.ud and sends a plain Send; softrdma refuses instead',
  'rdma_connect:RDMA_PS_UDP': 'softrdma: no SIDR service lookup on iWARP (a UD QP cannot exist anyway)',
  'ibv_post_send:IBV_WR_RDMA_WRITE_WITH_IMM':
    'siw: providers/siw push_send_wqe "opcode unsupported" → EINVAL, bad_wr set; softrdma: the same on a connection without RFC 7306',
  'ibv_post_send:IBV_WR_SEND_WITH_IMM': 'siw: push_send_wqe → EINVAL; softrdma: on a connection without RFC 7306',
  'ibv_post_send:IBV_WR_ATOMIC_CMP_AND_SWP':
    'siw: push_send_wqe → EINVAL (atomic_cap IBV_ATOMIC_NONE); softrdma: on a connection without RFC 7306',
  'ibv_post_send:IBV_WR_ATOMIC_FETCH_AND_ADD': 'siw: push_send_wqe → EINVAL; softrdma: on a connection without RFC 7306',
  'ibv_post_send:IBV_WR_TSO': 'siw: push_send_wqe → EINVAL',
  'ibv_post_send:IBV_WR_DRIVER1': 'siw: push_send_wqe → EINVAL',
  'ibv_post_send:IBV_WR_FLUSH': "softrdma: beyond siw's opcode table; same answer (EINVAL)",
  'ibv_post_send:IBV_WR_ATOMIC_WRITE': "softrdma: beyond siw's opcode table; same answer (EINVAL)",
  'ibv_modify_qp:IBV_QPS_RTS_UNCONNECTED':
    'siw: siw_qp_nextstate_from_idle refuses RTS without an LLP socket ("no socket") → -EINVAL; only rdma_cm (iw_cm) connects a QP',
  'ibv_modify_qp:IBV_QP_ALT_PATH':
    'softrdma: siw accepts and ignores the bit; softrdma refuses so APM code does not silently run unprotected',
  'ibv_modify_qp:IBV_QP_PATH_MIG_STATE': 'softrdma: as IBV_QP_ALT_PATH',
  'rdma_set_option:RDMA_OPTION_IB_PATH': 'softrdma: IB path records have no meaning on iWARP (kernel answer not verified)',
  ibv_open_xrc_domain: 'softrdma: legacy MLNX_OFED verb, not in rdma-core (a C program would not even link)',
  ibv_create_xrc_srq: 'softrdma: legacy MLNX_OFED verb',
  ibv_close_xrc_domain: 'softrdma: legacy MLNX_OFED verb',
  ibv_create_xrc_rcv_qp: 'softrdma: legacy MLNX_OFED verb',
  ibv_modify_xrc_rcv_qp: 'softrdma: legacy MLNX_OFED verb',
  ibv_query_xrc_rcv_qp: 'softrdma: legacy MLNX_OFED verb',
  ibv_reg_xrc_rcv_qp: 'softrdma: legacy MLNX_OFED verb',
  ibv_unreg_xrc_rcv_qp: 'softrdma: legacy MLNX_OFED verb',
  ibv_exp_create_dct: 'softrdma: MLNX_OFED experimental verb (DC transport)',
  ibv_exp_destroy_dct: 'softrdma: MLNX_OFED experimental verb (DC transport)',
  ibv_exp_query_dct: 'softrdma: MLNX_OFED experimental verb (DC transport)',
  ibv_exp_arm_dct: 'softrdma: MLNX_OFED experimental verb (DC transport)',
  ibv_exp_reg_mr: 'softrdma: MLNX_OFED experimental verb',
  ibv_exp_create_mr: 'softrdma: MLNX_OFED experimental verb (UMR)',
  ibv_exp_query_mkey: 'softrdma: MLNX_OFED experimental verb (UMR)',
  ibv_exp_alloc_mkey_list_memory: 'softrdma: MLNX_OFED experimental verb (UMR)',
  ibv_exp_dealloc_mkey_list_memory: 'softrdma: MLNX_OFED experimental verb (UMR)',
});

/**
 * Verbs the manual documents that siw (kernel + rdma-core provider) does not implement although
 * iWARP could: softrdma **does** implement them. Listed so that interop tests against siw know
 * what siw answers instead (all via rdma-core's `dummy_ops.c`, which siw's provider falls back to).
 */
export const SIW_ONLY_UNSUPPORTED: Readonly<Record<string, number>> = Object.freeze({
  ibv_resize_cq: EOPNOTSUPP,
  ibv_query_srq: EOPNOTSUPP,
  'ibv_post_send:IBV_WR_LOCAL_INV': EINVAL,
  'ibv_post_send:IBV_WR_BIND_MW': EINVAL,
});
