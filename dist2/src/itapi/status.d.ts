/**
 * IT-API 2.1 return status (`it_status_t`), its names, and the binding's error/outcome types.
 *
 * Numbering: the header `it_api.h` (IT-API 2.1 App. G.1, printed lines L13172–L13281) declares
 * `it_status_t` as an enum with `IT_SUCCESS = 0` and every other member implicitly numbered, so
 * a code's value is its position in header order (0 … 106). The normative `it_status_t` data-type
 * page (Ch. 7, L11350–L11458) lists the same members in the same order. Both public copies of the
 * header agree on the positions.
 *
 * Spelling: where the pages and the header spell a member differently, the canonical name is the
 * spelling of the normative reference page that *returns* the code, which is also the majority
 * spelling in the whole document; the other spelling is exported as an alias constant with the
 * same value (see {@link IT_STATUS_ALIASES}, `docs/spec-notes.md` section "IT-API"):
 *
 * | Position | Canonical | Alias | Count in the spec text |
 * |---|---|---|---|
 * | 11 | `IT_ERR_EP_TIMEWAIT` (it_ep_accept, it_ep_rc_create, it_status_t page) | `IT_ERR_EP_TIMEOUT` (header) | 5 : 1 |
 * | 23 | `IT_ERR_INVALID_ETIMEOUT` (it_ep_connect page, header) | `IT_ERR_INVALID_ATIMEOUT` (it_status_t page) | 2 : 1 |
 *
 * The header's `IT_ERR_RESOURCE_RECV DTO` / `IT_ERR_RESOURCE_REQ DTO` (a space for the
 * underscore) are typesetting damage, not spellings.
 *
 * Extensions: four codes are *named by reference pages* but absent from the enum. They are
 * appended after the last header position (107 …) so that the header numbering stays intact
 * (a C peer never sees them: they are immediate return codes, never on a wire):
 * `IT_ERR_INVALID_IANA_LR_PORT` (it_ep_connect L2115), `IT_ERR_RESOURCE_IOBL_LENGTH`
 * (it_lmr_create_unlinked L4711), `IT_ERR_INVALID_SD`, `IT_ERR_INVALID_SD_STATE`
 * (it_socket_convert L8156–L8157). Order = first appearance in the reference pages.
 *
 * Binding rule for statuses: a call's *immediate errors* throw {@link ItError}; the few
 * "normal outcome" statuses (an empty EVD, a timed-out wait, …) are *returned* in a
 * `{ status, ... }` object. The per-function lists are in `src/itapi/api.ts`
 * (`IT_API_FUNCTIONS[...].normal`) and `docs/itapi-surface.md` §1.
 *
 * @module
 */
/**
 * `it_status_t`. Values 0–106 are the header's positions; 107–110 are softrdma extensions for
 * codes the reference pages use but the enum lacks.
 */
export declare enum it_status_t {
    IT_SUCCESS = 0,
    IT_ERR_ABORT = 1,
    IT_ERR_ACCESS = 2,
    IT_ERR_ADDRESS = 3,
    IT_ERR_AEVD_NOT_ALLOWED = 4,
    IT_ERR_ASYNC_AFF_EVD_EXISTS = 5,
    IT_ERR_ASYNC_UNAFF_EVD_EXISTS = 6,
    IT_ERR_CALLBACK_EXISTS = 7,
    IT_ERR_CANNOT_RESET = 8,
    IT_ERR_CONN_QUAL_BUSY = 9,
    IT_ERR_EP_BUSY = 10,
    /** Header spelling: `IT_ERR_EP_TIMEOUT` (alias exported). */
    IT_ERR_EP_TIMEWAIT = 11,
    IT_ERR_EVD_BUSY = 12,
    IT_ERR_EVD_WAIT = 13,
    IT_ERR_EVD_QUEUE_FULL = 14,
    IT_ERR_FAULT = 15,
    IT_ERR_HARD_HI_WATERMARK = 16,
    IT_ERR_IA_CATASTROPHE = 17,
    IT_ERR_INTERRUPT = 18,
    IT_ERR_INVALID_ADDR_MODE = 19,
    IT_ERR_INVALID_ADDRESS = 20,
    IT_ERR_INVALID_AEVD = 21,
    IT_ERR_INVALID_AH = 22,
    /** `conn_attr.ib.local_ack_timeout` invalid. it_status_t page spelling: `IT_ERR_INVALID_ATIMEOUT`. */
    IT_ERR_INVALID_ETIMEOUT = 23,
    IT_ERR_INVALID_ATOMIC_OP = 24,
    IT_ERR_INVALID_CM_RETRY = 25,
    IT_ERR_INVALID_CN_EST_FLAGS = 26,
    IT_ERR_INVALID_CN_EST_ID = 27,
    IT_ERR_INVALID_CONN_EVD = 28,
    IT_ERR_INVALID_CONN_QUAL = 29,
    IT_ERR_INVALID_CONVERSION = 30,
    IT_ERR_INVALID_DTO_FLAGS = 31,
    IT_ERR_INVALID_EP = 32,
    IT_ERR_INVALID_EP_ATTR = 33,
    IT_ERR_INVALID_EP_KEY = 34,
    IT_ERR_INVALID_EP_STATE = 35,
    IT_ERR_INVALID_EP_TYPE = 36,
    IT_ERR_INVALID_EVD = 37,
    IT_ERR_INVALID_EVD_STATE = 38,
    IT_ERR_INVALID_EVD_TYPE = 39,
    IT_ERR_INVALID_FLAGS = 40,
    IT_ERR_INVALID_HANDLE = 41,
    IT_ERR_INVALID_IA = 42,
    IT_ERR_INVALID_IOBL = 43,
    IT_ERR_INVALID_LENGTH = 44,
    IT_ERR_INVALID_LISTEN = 45,
    IT_ERR_INVALID_LMR = 46,
    IT_ERR_INVALID_LTIMEOUT = 47,
    IT_ERR_INVALID_MAJOR_VERSION = 48,
    IT_ERR_INVALID_MASK = 49,
    IT_ERR_INVALID_MINOR_VERSION = 50,
    IT_ERR_INVALID_NAME = 51,
    IT_ERR_INVALID_NETADDR = 52,
    IT_ERR_INVALID_NUM_SEGMENTS = 53,
    IT_ERR_INVALID_PDATA_LENGTH = 54,
    IT_ERR_INVALID_PRIVS = 55,
    IT_ERR_INVALID_PZ = 56,
    IT_ERR_INVALID_QUEUE_SIZE = 57,
    IT_ERR_INVALID_RECV_DTO = 58,
    IT_ERR_INVALID_RECV_EVD = 59,
    IT_ERR_INVALID_RECV_EVD_STATE = 60,
    IT_ERR_INVALID_REQ_EVD = 61,
    IT_ERR_INVALID_REQ_EVD_STATE = 62,
    IT_ERR_INVALID_RETRY = 63,
    IT_ERR_INVALID_RMR = 64,
    IT_ERR_INVALID_RNR_RETRY = 65,
    IT_ERR_INVALID_RMR_TYPE = 66,
    IT_ERR_INVALID_RTIMEOUT = 67,
    IT_ERR_INVALID_SOFT_EVD = 68,
    IT_ERR_INVALID_SOURCE_PATH = 69,
    IT_ERR_INVALID_SPIGOT = 70,
    IT_ERR_INVALID_SRQ = 71,
    IT_ERR_INVALID_SRQ_SIZE = 72,
    IT_ERR_INVALID_THRESHOLD = 73,
    IT_ERR_INVALID_UD_STATUS = 74,
    IT_ERR_INVALID_UD_SVC = 75,
    IT_ERR_INVALID_UD_SVC_REQ_ID = 76,
    IT_ERR_INVALID_WATERMARK = 77,
    IT_ERR_LMR_BUSY = 78,
    IT_ERR_MISMATCH_FD = 79,
    IT_ERR_NO_CONTEXT = 80,
    IT_ERR_NO_PERMISSION = 81,
    /** "The operation failed as it is not supported on the IA" (it_post_rdma_read_to_rmr L6093). */
    IT_ERR_OP_NOT_SUPPORTED = 82,
    IT_ERR_PAYLOAD_SIZE = 83,
    IT_ERR_PDATA_NOT_SUPPORTED = 84,
    IT_ERR_PRIV_OPS_UNAVAILABLE = 85,
    IT_ERR_PZ_BUSY = 86,
    IT_ERR_QUEUE_EMPTY = 87,
    IT_ERR_RANGE = 88,
    IT_ERR_RESOURCES = 89,
    IT_ERR_RESOURCE_IRD = 90,
    IT_ERR_RESOURCE_LMR_LENGTH = 91,
    IT_ERR_RESOURCE_ORD = 92,
    IT_ERR_RESOURCE_QUEUE_SIZE = 93,
    IT_ERR_RESOURCE_RECV_DTO = 94,
    IT_ERR_RESOURCE_REQ_DTO = 95,
    IT_ERR_RESOURCE_RRSEG = 96,
    IT_ERR_RESOURCE_RSEG = 97,
    IT_ERR_RESOURCE_RWSEG = 98,
    IT_ERR_RESOURCE_SSEG = 99,
    IT_ERR_SOFT_HI_WATERMARK = 100,
    IT_ERR_SRQ_BUSY = 101,
    IT_ERR_SRQ_LOW_WATERMARK = 102,
    IT_ERR_SRQ_NOT_SUPPORTED = 103,
    IT_ERR_TIMEOUT_EXPIRED = 104,
    IT_ERR_TOO_MANY_POSTS = 105,
    IT_ERR_WAITER_LIMIT = 106,
    /** it_ep_connect (L2115): the local port of an `IT_IANA_LR_PORT` qualifier is already in use. */
    IT_ERR_INVALID_IANA_LR_PORT = 107,
    /** it_lmr_create_unlinked (L4711): cannot allocate an LMR with `iobl_num_elts` IOBL entries. */
    IT_ERR_RESOURCE_IOBL_LENGTH = 108,
    /** it_socket_convert (L8156): the socket descriptor was invalid. */
    IT_ERR_INVALID_SD = 109,
    /** it_socket_convert (L8157): the socket is not in a state that can be converted. */
    IT_ERR_INVALID_SD_STATE = 110
}
/** Number of members of the header's `it_status_t` (positions 0 … 106). */
export declare const IT_STATUS_HEADER_COUNT = 107;
/** Highest header position (`IT_ERR_WAITER_LIMIT`). */
export declare const IT_STATUS_HEADER_MAX = it_status_t.IT_ERR_WAITER_LIMIT;
/** Highest value including the softrdma extensions. */
export declare const IT_STATUS_MAX = it_status_t.IT_ERR_INVALID_SD_STATE;
/** Every status except `IT_SUCCESS`. */
export type ItErrorStatus = Exclude<it_status_t, it_status_t.IT_SUCCESS>;
export declare const IT_SUCCESS = it_status_t.IT_SUCCESS;
export declare const IT_ERR_ABORT = it_status_t.IT_ERR_ABORT;
export declare const IT_ERR_ACCESS = it_status_t.IT_ERR_ACCESS;
export declare const IT_ERR_ADDRESS = it_status_t.IT_ERR_ADDRESS;
export declare const IT_ERR_AEVD_NOT_ALLOWED = it_status_t.IT_ERR_AEVD_NOT_ALLOWED;
export declare const IT_ERR_ASYNC_AFF_EVD_EXISTS = it_status_t.IT_ERR_ASYNC_AFF_EVD_EXISTS;
export declare const IT_ERR_ASYNC_UNAFF_EVD_EXISTS = it_status_t.IT_ERR_ASYNC_UNAFF_EVD_EXISTS;
export declare const IT_ERR_CALLBACK_EXISTS = it_status_t.IT_ERR_CALLBACK_EXISTS;
export declare const IT_ERR_CANNOT_RESET = it_status_t.IT_ERR_CANNOT_RESET;
export declare const IT_ERR_CONN_QUAL_BUSY = it_status_t.IT_ERR_CONN_QUAL_BUSY;
export declare const IT_ERR_EP_BUSY = it_status_t.IT_ERR_EP_BUSY;
export declare const IT_ERR_EP_TIMEWAIT = it_status_t.IT_ERR_EP_TIMEWAIT;
export declare const IT_ERR_EVD_BUSY = it_status_t.IT_ERR_EVD_BUSY;
export declare const IT_ERR_EVD_WAIT = it_status_t.IT_ERR_EVD_WAIT;
export declare const IT_ERR_EVD_QUEUE_FULL = it_status_t.IT_ERR_EVD_QUEUE_FULL;
export declare const IT_ERR_FAULT = it_status_t.IT_ERR_FAULT;
export declare const IT_ERR_HARD_HI_WATERMARK = it_status_t.IT_ERR_HARD_HI_WATERMARK;
export declare const IT_ERR_IA_CATASTROPHE = it_status_t.IT_ERR_IA_CATASTROPHE;
export declare const IT_ERR_INTERRUPT = it_status_t.IT_ERR_INTERRUPT;
export declare const IT_ERR_INVALID_ADDR_MODE = it_status_t.IT_ERR_INVALID_ADDR_MODE;
export declare const IT_ERR_INVALID_ADDRESS = it_status_t.IT_ERR_INVALID_ADDRESS;
export declare const IT_ERR_INVALID_AEVD = it_status_t.IT_ERR_INVALID_AEVD;
export declare const IT_ERR_INVALID_AH = it_status_t.IT_ERR_INVALID_AH;
export declare const IT_ERR_INVALID_ETIMEOUT = it_status_t.IT_ERR_INVALID_ETIMEOUT;
export declare const IT_ERR_INVALID_ATOMIC_OP = it_status_t.IT_ERR_INVALID_ATOMIC_OP;
export declare const IT_ERR_INVALID_CM_RETRY = it_status_t.IT_ERR_INVALID_CM_RETRY;
export declare const IT_ERR_INVALID_CN_EST_FLAGS = it_status_t.IT_ERR_INVALID_CN_EST_FLAGS;
export declare const IT_ERR_INVALID_CN_EST_ID = it_status_t.IT_ERR_INVALID_CN_EST_ID;
export declare const IT_ERR_INVALID_CONN_EVD = it_status_t.IT_ERR_INVALID_CONN_EVD;
export declare const IT_ERR_INVALID_CONN_QUAL = it_status_t.IT_ERR_INVALID_CONN_QUAL;
export declare const IT_ERR_INVALID_CONVERSION = it_status_t.IT_ERR_INVALID_CONVERSION;
export declare const IT_ERR_INVALID_DTO_FLAGS = it_status_t.IT_ERR_INVALID_DTO_FLAGS;
export declare const IT_ERR_INVALID_EP = it_status_t.IT_ERR_INVALID_EP;
export declare const IT_ERR_INVALID_EP_ATTR = it_status_t.IT_ERR_INVALID_EP_ATTR;
export declare const IT_ERR_INVALID_EP_KEY = it_status_t.IT_ERR_INVALID_EP_KEY;
export declare const IT_ERR_INVALID_EP_STATE = it_status_t.IT_ERR_INVALID_EP_STATE;
export declare const IT_ERR_INVALID_EP_TYPE = it_status_t.IT_ERR_INVALID_EP_TYPE;
export declare const IT_ERR_INVALID_EVD = it_status_t.IT_ERR_INVALID_EVD;
export declare const IT_ERR_INVALID_EVD_STATE = it_status_t.IT_ERR_INVALID_EVD_STATE;
export declare const IT_ERR_INVALID_EVD_TYPE = it_status_t.IT_ERR_INVALID_EVD_TYPE;
export declare const IT_ERR_INVALID_FLAGS = it_status_t.IT_ERR_INVALID_FLAGS;
export declare const IT_ERR_INVALID_HANDLE = it_status_t.IT_ERR_INVALID_HANDLE;
export declare const IT_ERR_INVALID_IA = it_status_t.IT_ERR_INVALID_IA;
export declare const IT_ERR_INVALID_IOBL = it_status_t.IT_ERR_INVALID_IOBL;
export declare const IT_ERR_INVALID_LENGTH = it_status_t.IT_ERR_INVALID_LENGTH;
export declare const IT_ERR_INVALID_LISTEN = it_status_t.IT_ERR_INVALID_LISTEN;
export declare const IT_ERR_INVALID_LMR = it_status_t.IT_ERR_INVALID_LMR;
export declare const IT_ERR_INVALID_LTIMEOUT = it_status_t.IT_ERR_INVALID_LTIMEOUT;
export declare const IT_ERR_INVALID_MAJOR_VERSION = it_status_t.IT_ERR_INVALID_MAJOR_VERSION;
export declare const IT_ERR_INVALID_MASK = it_status_t.IT_ERR_INVALID_MASK;
export declare const IT_ERR_INVALID_MINOR_VERSION = it_status_t.IT_ERR_INVALID_MINOR_VERSION;
export declare const IT_ERR_INVALID_NAME = it_status_t.IT_ERR_INVALID_NAME;
export declare const IT_ERR_INVALID_NETADDR = it_status_t.IT_ERR_INVALID_NETADDR;
export declare const IT_ERR_INVALID_NUM_SEGMENTS = it_status_t.IT_ERR_INVALID_NUM_SEGMENTS;
export declare const IT_ERR_INVALID_PDATA_LENGTH = it_status_t.IT_ERR_INVALID_PDATA_LENGTH;
export declare const IT_ERR_INVALID_PRIVS = it_status_t.IT_ERR_INVALID_PRIVS;
export declare const IT_ERR_INVALID_PZ = it_status_t.IT_ERR_INVALID_PZ;
export declare const IT_ERR_INVALID_QUEUE_SIZE = it_status_t.IT_ERR_INVALID_QUEUE_SIZE;
export declare const IT_ERR_INVALID_RECV_DTO = it_status_t.IT_ERR_INVALID_RECV_DTO;
export declare const IT_ERR_INVALID_RECV_EVD = it_status_t.IT_ERR_INVALID_RECV_EVD;
export declare const IT_ERR_INVALID_RECV_EVD_STATE = it_status_t.IT_ERR_INVALID_RECV_EVD_STATE;
export declare const IT_ERR_INVALID_REQ_EVD = it_status_t.IT_ERR_INVALID_REQ_EVD;
export declare const IT_ERR_INVALID_REQ_EVD_STATE = it_status_t.IT_ERR_INVALID_REQ_EVD_STATE;
export declare const IT_ERR_INVALID_RETRY = it_status_t.IT_ERR_INVALID_RETRY;
export declare const IT_ERR_INVALID_RMR = it_status_t.IT_ERR_INVALID_RMR;
export declare const IT_ERR_INVALID_RNR_RETRY = it_status_t.IT_ERR_INVALID_RNR_RETRY;
export declare const IT_ERR_INVALID_RMR_TYPE = it_status_t.IT_ERR_INVALID_RMR_TYPE;
export declare const IT_ERR_INVALID_RTIMEOUT = it_status_t.IT_ERR_INVALID_RTIMEOUT;
export declare const IT_ERR_INVALID_SOFT_EVD = it_status_t.IT_ERR_INVALID_SOFT_EVD;
export declare const IT_ERR_INVALID_SOURCE_PATH = it_status_t.IT_ERR_INVALID_SOURCE_PATH;
export declare const IT_ERR_INVALID_SPIGOT = it_status_t.IT_ERR_INVALID_SPIGOT;
export declare const IT_ERR_INVALID_SRQ = it_status_t.IT_ERR_INVALID_SRQ;
export declare const IT_ERR_INVALID_SRQ_SIZE = it_status_t.IT_ERR_INVALID_SRQ_SIZE;
export declare const IT_ERR_INVALID_THRESHOLD = it_status_t.IT_ERR_INVALID_THRESHOLD;
export declare const IT_ERR_INVALID_UD_STATUS = it_status_t.IT_ERR_INVALID_UD_STATUS;
export declare const IT_ERR_INVALID_UD_SVC = it_status_t.IT_ERR_INVALID_UD_SVC;
export declare const IT_ERR_INVALID_UD_SVC_REQ_ID = it_status_t.IT_ERR_INVALID_UD_SVC_REQ_ID;
export declare const IT_ERR_INVALID_WATERMARK = it_status_t.IT_ERR_INVALID_WATERMARK;
export declare const IT_ERR_LMR_BUSY = it_status_t.IT_ERR_LMR_BUSY;
export declare const IT_ERR_MISMATCH_FD = it_status_t.IT_ERR_MISMATCH_FD;
export declare const IT_ERR_NO_CONTEXT = it_status_t.IT_ERR_NO_CONTEXT;
export declare const IT_ERR_NO_PERMISSION = it_status_t.IT_ERR_NO_PERMISSION;
export declare const IT_ERR_OP_NOT_SUPPORTED = it_status_t.IT_ERR_OP_NOT_SUPPORTED;
export declare const IT_ERR_PAYLOAD_SIZE = it_status_t.IT_ERR_PAYLOAD_SIZE;
export declare const IT_ERR_PDATA_NOT_SUPPORTED = it_status_t.IT_ERR_PDATA_NOT_SUPPORTED;
export declare const IT_ERR_PRIV_OPS_UNAVAILABLE = it_status_t.IT_ERR_PRIV_OPS_UNAVAILABLE;
export declare const IT_ERR_PZ_BUSY = it_status_t.IT_ERR_PZ_BUSY;
export declare const IT_ERR_QUEUE_EMPTY = it_status_t.IT_ERR_QUEUE_EMPTY;
export declare const IT_ERR_RANGE = it_status_t.IT_ERR_RANGE;
export declare const IT_ERR_RESOURCES = it_status_t.IT_ERR_RESOURCES;
export declare const IT_ERR_RESOURCE_IRD = it_status_t.IT_ERR_RESOURCE_IRD;
export declare const IT_ERR_RESOURCE_LMR_LENGTH = it_status_t.IT_ERR_RESOURCE_LMR_LENGTH;
export declare const IT_ERR_RESOURCE_ORD = it_status_t.IT_ERR_RESOURCE_ORD;
export declare const IT_ERR_RESOURCE_QUEUE_SIZE = it_status_t.IT_ERR_RESOURCE_QUEUE_SIZE;
export declare const IT_ERR_RESOURCE_RECV_DTO = it_status_t.IT_ERR_RESOURCE_RECV_DTO;
export declare const IT_ERR_RESOURCE_REQ_DTO = it_status_t.IT_ERR_RESOURCE_REQ_DTO;
export declare const IT_ERR_RESOURCE_RRSEG = it_status_t.IT_ERR_RESOURCE_RRSEG;
export declare const IT_ERR_RESOURCE_RSEG = it_status_t.IT_ERR_RESOURCE_RSEG;
export declare const IT_ERR_RESOURCE_RWSEG = it_status_t.IT_ERR_RESOURCE_RWSEG;
export declare const IT_ERR_RESOURCE_SSEG = it_status_t.IT_ERR_RESOURCE_SSEG;
export declare const IT_ERR_SOFT_HI_WATERMARK = it_status_t.IT_ERR_SOFT_HI_WATERMARK;
export declare const IT_ERR_SRQ_BUSY = it_status_t.IT_ERR_SRQ_BUSY;
export declare const IT_ERR_SRQ_LOW_WATERMARK = it_status_t.IT_ERR_SRQ_LOW_WATERMARK;
export declare const IT_ERR_SRQ_NOT_SUPPORTED = it_status_t.IT_ERR_SRQ_NOT_SUPPORTED;
export declare const IT_ERR_TIMEOUT_EXPIRED = it_status_t.IT_ERR_TIMEOUT_EXPIRED;
export declare const IT_ERR_TOO_MANY_POSTS = it_status_t.IT_ERR_TOO_MANY_POSTS;
export declare const IT_ERR_WAITER_LIMIT = it_status_t.IT_ERR_WAITER_LIMIT;
export declare const IT_ERR_INVALID_IANA_LR_PORT = it_status_t.IT_ERR_INVALID_IANA_LR_PORT;
export declare const IT_ERR_RESOURCE_IOBL_LENGTH = it_status_t.IT_ERR_RESOURCE_IOBL_LENGTH;
export declare const IT_ERR_INVALID_SD = it_status_t.IT_ERR_INVALID_SD;
export declare const IT_ERR_INVALID_SD_STATE = it_status_t.IT_ERR_INVALID_SD_STATE;
/** Header (App. G.1 L13185) spelling of {@link it_status_t.IT_ERR_EP_TIMEWAIT}. */
export declare const IT_ERR_EP_TIMEOUT = it_status_t.IT_ERR_EP_TIMEWAIT;
/** `it_status_t` data-type page (L11374) spelling of {@link it_status_t.IT_ERR_INVALID_ETIMEOUT}. */
export declare const IT_ERR_INVALID_ATIMEOUT = it_status_t.IT_ERR_INVALID_ETIMEOUT;
/** Every alias spelling (full C name) → canonical status. {@link itStatusFromName} accepts these. */
export declare const IT_STATUS_ALIASES: Readonly<Record<string, it_status_t>>;
/** True when `value` is a defined status (header positions or softrdma extensions). */
export declare function isItStatus(value: unknown): value is it_status_t;
/** True when `status` is one of the 107 header positions (not a softrdma extension). */
export declare function isItHeaderStatus(status: it_status_t | number): boolean;
/**
 * Canonical C name of a status, e.g. `itStatusName(87) === 'IT_ERR_QUEUE_EMPTY'`. Unknown values
 * give `IT_STATUS_<n>?` instead of throwing (used in log and error messages).
 */
export declare function itStatusName(status: it_status_t | number): string;
/** Status for a C name, canonical or alias; `undefined` for unknown names. */
export declare function itStatusFromName(name: string): it_status_t | undefined;
/**
 * An IT-API immediate error. Every `it_*` call of `ItApi` throws this (or, for the
 * Promise-returning calls, rejects with it) when the C call would return an error status that is
 * not one of the call's documented normal outcomes. Nothing was changed by the failed call,
 * except where the reference page says otherwise (`it_lmr_modify` destroys the LMR on most
 * errors; `it_get_consumer_context` is a normal outcome instead).
 */
export declare class ItError extends Error {
    /** The C status the call would have returned. Never `IT_SUCCESS`. */
    readonly status: it_status_t;
    /** The C function that failed, e.g. `'it_ep_connect'`, when known. */
    readonly fn: string | undefined;
    constructor(status: it_status_t, message?: string, fn?: string);
}
/** True when `e` is an {@link ItError} (optionally with status `status`). */
export declare function isItError(e: unknown, status?: it_status_t): e is ItError;
/** Empty payload. */
export type ItNoOutputs = Record<never, never>;
/** A successful outcome carrying the call's OUT parameters `T`. */
export type ItSuccess<T extends object = ItNoOutputs> = {
    readonly status: it_status_t.IT_SUCCESS;
} & Readonly<T>;
/**
 * A *normal outcome* other than success: status `S` is returned, not thrown, because it
 * describes the state of the world rather than a misuse (empty queue, expired timeout, …).
 * `T` are the OUT parameters the reference page defines for that status (e.g. `nmore` on
 * `IT_ERR_TIMEOUT_EXPIRED`, `context` = 0 on `IT_ERR_NO_CONTEXT`).
 */
export type ItNormalOutcome<S extends ItErrorStatus, T extends object = ItNoOutputs> = {
    readonly status: S;
} & Readonly<T>;
