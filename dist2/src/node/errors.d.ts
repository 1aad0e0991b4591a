/**
 * The typed errors of the Node API. Every rejection carries a `code` (an errno name such as
 * `'ECONNREFUSED'`, or for a failed work completion the status's name from the verbs header,
 * `'IBV_WC_REM_ACCESS_ERR'`) and a message that says what happened; `errno` and `status` carry
 * the numbers the verbs layer returned, so nothing of the underlying answer is lost.
 */
import { ibv_wc_status, type ibv_wc } from '../verbs/index.js';
/** Base class: every error the Node API throws or rejects with (besides AbortSignal reasons). */
export declare class RdmaError extends Error {
    name: string;
    /** An errno name (`'ENODEV'`, `'ECONNREFUSED'`…) or, for {@link WcError}, the WC status name. */
    readonly code: string;
    /** The positive errno the verbs call returned, when there was one. */
    readonly errno: number | undefined;
    constructor(message: string, code: string, errno?: number, options?: {
        cause?: unknown;
    });
    /** An error from a positive errno the verbs layer returned (`detail` is softrdmaLastError's message). */
    static fromErrno(what: string, errno: number, detail?: string): RdmaError;
}
/**
 * A work request completed with an error status (manual §7.2, `enum ibv_wc_status`). `status`
 * is the number, `code` its name (`'IBV_WC_WR_FLUSH_ERR'`), `message` the operation, the name and
 * `ibv_wc_status_str`'s words.
 */
export declare class WcError extends RdmaError {
    name: string;
    readonly status: ibv_wc_status;
    /** The operation that failed: `'send'`, `'write'`, `'read'`, `'recv'`, `'atomicFetchAdd'`… */
    readonly operation: string;
    /** The provider's own status (RNICPI `op_status`), as `ibv_wc.vendor_err`. */
    readonly vendorErr: number;
    /** The work completion as the verbs layer gave it (a copy). */
    readonly wc: Readonly<ibv_wc>;
    constructor(operation: string, wc: ibv_wc);
    /** The opcode name of the completion (`'IBV_WC_RDMA_READ'`), when the provider set it. */
    get opcodeName(): string;
}
/** The device or transport cannot do this operation (the verbs call's own errno, e.g. EINVAL for an iWARP atomic, is in `errno`). */
export declare class UnsupportedError extends RdmaError {
    name: string;
    constructor(message: string, errno: number);
}
/** The requested device (or transport) is not in the device list. */
export declare class DeviceNotFoundError extends RdmaError {
    name: string;
    constructor(message: string);
}
/**
 * A connection could not be made: `code` is `'ECONNREFUSED'` (refused, or rejected by the
 * server, then with the server's `privateData`), `'ETIMEDOUT'` (no answer in time) or
 * `'ECONNRESET'`.
 */
export declare class ConnectError extends RdmaError {
    name: string;
    /** The server's private data when it rejected the request (`request.reject(data)`), else null. */
    readonly privateData: Uint8Array | null;
    constructor(message: string, code: string, errno: number, privateData?: Uint8Array | null);
}
/** The connection is closed (or closing): the operation was not posted. */
export declare class ConnectionClosedError extends RdmaError {
    name: string;
    constructor(message?: string);
}
/** The caller's wait queue is full (`maxQueued`): the operation was not queued. */
export declare class QueueFullError extends RdmaError {
    name: string;
    constructor(limit: number);
}
