/**
 * The typed errors of the Node API. Every rejection carries a `code` (an errno name such as
 * `'ECONNREFUSED'`, or for a failed work completion the status's name from the verbs header,
 * `'IBV_WC_REM_ACCESS_ERR'`) and a message that says what happened; `errno` and `status` carry
 * the numbers the verbs layer returned, so nothing of the underlying answer is lost.
 */
import { errnoName, errnoString, ibv_wc_opcode, ibv_wc_status, ibv_wc_status_str } from '../verbs/index.js';
/** Base class: every error the Node API throws or rejects with (besides AbortSignal reasons). */
export class RdmaError extends Error {
    name = 'RdmaError';
    /** An errno name (`'ENODEV'`, `'ECONNREFUSED'`…) or, for {@link WcError}, the WC status name. */
    code;
    /** The positive errno the verbs call returned, when there was one. */
    errno;
    constructor(message, code, errno, options) {
        super(message, options);
        this.code = code;
        this.errno = errno;
    }
    /** An error from a positive errno the verbs layer returned (`detail` is softrdmaLastError's message). */
    static fromErrno(what, errno, detail) {
        const msg = detail && detail !== errnoString(errno) ? `${what}: ${detail}` : `${what}: ${errnoString(errno)}`;
        return new RdmaError(msg, errnoName(errno), errno);
    }
}
/**
 * A work request completed with an error status (manual §7.2, `enum ibv_wc_status`). `status`
 * is the number, `code` its name (`'IBV_WC_WR_FLUSH_ERR'`), `message` the operation, the name and
 * `ibv_wc_status_str`'s words.
 */
export class WcError extends RdmaError {
    name = 'WcError';
    status;
    /** The operation that failed: `'send'`, `'write'`, `'read'`, `'recv'`, `'atomicFetchAdd'`… */
    operation;
    /** The provider's own status (RNICPI `op_status`), as `ibv_wc.vendor_err`. */
    vendorErr;
    /** The work completion as the verbs layer gave it (a copy). */
    wc;
    constructor(operation, wc) {
        const name = ibv_wc_status[wc.status] ?? `status ${wc.status}`;
        super(`${operation} failed: ${name} (${ibv_wc_status_str(wc.status)})`, name);
        this.status = wc.status;
        this.operation = operation;
        this.vendorErr = wc.vendor_err;
        this.wc = Object.freeze({ ...wc });
    }
    /** The opcode name of the completion (`'IBV_WC_RDMA_READ'`), when the provider set it. */
    get opcodeName() {
        return ibv_wc_opcode[this.wc.opcode] ?? String(this.wc.opcode);
    }
}
/** The device or transport cannot do this operation (the verbs call's own errno, e.g. EINVAL for an iWARP atomic, is in `errno`). */
export class UnsupportedError extends RdmaError {
    name = 'UnsupportedError';
    constructor(message, errno) {
        super(message, 'EOPNOTSUPP', errno);
    }
}
/** The requested device (or transport) is not in the device list. */
export class DeviceNotFoundError extends RdmaError {
    name = 'DeviceNotFoundError';
    constructor(message) {
        super(message, 'ENODEV', 19);
    }
}
/**
 * A connection could not be made: `code` is `'ECONNREFUSED'` (refused, or rejected by the
 * server, then with the server's `privateData`), `'ETIMEDOUT'` (no answer in time) or
 * `'ECONNRESET'`.
 */
export class ConnectError extends RdmaError {
    name = 'ConnectError';
    /** The server's private data when it rejected the request (`request.reject(data)`), else null. */
    privateData;
    constructor(message, code, errno, privateData = null) {
        super(message, code, errno);
        this.privateData = privateData;
    }
}
/** The connection is closed (or closing): the operation was not posted. */
export class ConnectionClosedError extends RdmaError {
    name = 'ConnectionClosedError';
    constructor(message = 'the connection is closed') {
        super(message, 'ENOTCONN', 107);
    }
}
/** The caller's wait queue is full (`maxQueued`): the operation was not queued. */
export class QueueFullError extends RdmaError {
    name = 'QueueFullError';
    constructor(limit) {
        super(`more than ${limit} operations are waiting for the connection's window (maxQueued); await some first`, 'ENOBUFS', 105);
    }
}
//# sourceMappingURL=errors.js.map