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
export declare const EPERM = 1;
export declare const ENOENT = 2;
export declare const EINTR = 4;
export declare const EIO = 5;
export declare const ENXIO = 6;
export declare const EBADF = 9;
export declare const EAGAIN = 11;
export declare const EWOULDBLOCK = 11;
export declare const ENOMEM = 12;
export declare const EACCES = 13;
export declare const EFAULT = 14;
export declare const EBUSY = 16;
export declare const EEXIST = 17;
export declare const ENODEV = 19;
export declare const EINVAL = 22;
export declare const ENOSPC = 28;
export declare const ERANGE = 34;
export declare const ENOSYS = 38;
export declare const ENODATA = 61;
export declare const ETIME = 62;
export declare const EPROTO = 71;
export declare const EOVERFLOW = 75;
export declare const EMSGSIZE = 90;
export declare const EPROTONOSUPPORT = 93;
export declare const EOPNOTSUPP = 95;
export declare const ENOTSUP = 95;
export declare const EAFNOSUPPORT = 97;
export declare const EADDRINUSE = 98;
export declare const EADDRNOTAVAIL = 99;
export declare const ENETDOWN = 100;
export declare const ENETUNREACH = 101;
export declare const ECONNABORTED = 103;
export declare const ECONNRESET = 104;
export declare const ENOBUFS = 105;
export declare const EISCONN = 106;
export declare const ENOTCONN = 107;
export declare const ETIMEDOUT = 110;
export declare const ECONNREFUSED = 111;
export declare const EHOSTDOWN = 112;
export declare const EHOSTUNREACH = 113;
export declare const EALREADY = 114;
export declare const EINPROGRESS = 115;
export declare const ECANCELED = 125;
/** Symbolic name of every errno above (`EAGAIN` for 11, `EOPNOTSUPP` for 95). */
export declare const ERRNO_NAMES: Readonly<Record<number, string>>;
/** The symbolic name of an errno (`'EADDRINUSE'` for 98); a negative value is read as its magnitude (CM event status). */
export declare function errnoName(errnum: number): string;
/** C's `strerror(errnum)`: glibc's text, e.g. `'Address already in use'` for 98. */
export declare function strerror(errnum: number): string;
/**
 * An errno as a person reads it: name and text, `'EADDRINUSE (Address already in use)'`.
 * rdma-core has no such call (C programs print `strerror(errno)` or use `perror`); this is the
 * one place the CLI and the examples turn an errno into words.
 */
export declare function errnoString(errnum: number): string;
/**
 * The `errno` left by the last failing verbs call (C's `errno`). Like C, successful calls do not
 * clear it: read it only right after a call reported failure (null, -1 or a non-zero return).
 */
export declare function getErrno(): number;
/**
 * Sets `errno` (for the implementation of the verbs; C code may also assign `errno = 0`), with
 * the failing call's own words about what was wrong when it has them. Setting an errno without
 * `detail` clears the previous detail, so a message never outlives the failure it explains.
 */
export declare function setErrno(value: number, detail?: string): void;
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
export declare function softrdmaLastError(): SoftrdmaError;
/**
 * What softrdma's iWARP device answers for the features of the manual iWARP cannot provide
 * (UD/UC, multicast, address handles, atomics, immediate data, APM, XRC, DC and the other
 * experimental verbs). Key: the function name, or `function:qualifier` when only some
 * arguments are unsupported (a QP type, an opcode, a mask bit). Value: the positive errno — returned
 * directly by `ibv_*` int calls, stored in `errno` by pointer calls (which return `null`) and by
 * `rdma_*` calls (which return -1). Each entry's provenance is in {@link IWARP_UNSUPPORTED_SOURCE}.
 */
export declare const IWARP_UNSUPPORTED: Readonly<Record<string, number>>;
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
export declare const IWARP_UNSUPPORTED_SOURCE: Readonly<Record<string, string>>;
/**
 * Verbs the manual documents that siw (kernel + rdma-core provider) does not implement although
 * iWARP could: softrdma **does** implement them. Listed so that interop tests against siw know
 * what siw answers instead (all via rdma-core's `dummy_ops.c`, which siw's provider falls back to).
 */
export declare const SIW_ONLY_UNSUPPORTED: Readonly<Record<string, number>>;
