/**
 * The typed errors of the Node API. Every rejection carries a `code` (an errno name such as
 * `'ECONNREFUSED'`, or for a failed work completion the status's name from the verbs header,
 * `'IBV_WC_REM_ACCESS_ERR'`) and a message that says what happened; `errno` and `status` carry
 * the numbers the verbs layer returned, so nothing of the underlying answer is lost.
 */
import { errnoName, errnoString, ibv_wc_opcode, ibv_wc_status, ibv_wc_status_str, type ibv_wc } from '../verbs/index.js';

/** Base class: every error the Node API throws or rejects with (besides AbortSignal reasons). */
export class RdmaError extends Error {
  override name = 'RdmaError';
  /** An errno name (`'ENODEV'`, `'ECONNREFUSED'`…) or, for {@link WcError}, the WC status name. */
  readonly code: string;
  /** The positive errno the verbs call returned, when there was one. */
  readonly errno: number | undefined;
  constructor(message: string, code: string, errno?: number, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
    this.errno = errno;
  }
  /** An error from a positive errno the verbs layer returned (`detail` is softrdmaLastError's message). */
  static fromErrno(what: string, errno: number, detail?: string): RdmaError {
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
  override name = 'WcError';
  readonly status: ibv_wc_status;
  /** The operation that failed: `'send'`, `'write'`, `'read'`, `'recv'`, `'atomicFetchAdd'`… */
  readonly operation: string;
  /** The provider's own status (RNICPI `op_status`), as `ibv_wc.vendor_err`. */
  readonly vendorErr: number;
  /** The work completion as the verbs layer gave it (a copy). */
  readonly wc: Readonly<ibv_wc>;
  constructor(operation: string, wc: ibv_wc) {
    const name = ibv_wc_status[wc.status] ?? `status ${wc.status}`;
    super(`${operation} failed: ${name} (${ibv_wc_status_str(wc.status)})`, name);
    this.status = wc.status;
    this.operation = operation;
    this.vendorErr = wc.vendor_err;
    this.wc = Object.freeze({ ...wc });
  }
  /** The opcode name of the completion (`'IBV_WC_RDMA_READ'`), when the provider set it. */
  get opcodeName(): string {
    return ibv_wc_opcode[this.wc.opcode] ?? String(this.wc.opcode);
  }
}

/** The device or transport cannot do this operation (the verbs call's own errno, e.g. EINVAL for an iWARP atomic, is in `errno`). */
export class UnsupportedError extends RdmaError {
  override name = 'UnsupportedError';
  constructor(message: string, errno: number) {
    super(message, 'EOPNOTSUPP', errno);
  }
}

/** The requested device (or transport) is not in the device list. */
export class DeviceNotFoundError extends RdmaError {
  override name = 'DeviceNotFoundError';
  constructor(message: string) {
    super(message, 'ENODEV', 19);
  }
}

/**
 * A connection could not be made: `code` is `'ECONNREFUSED'` (refused, or rejected by the
 * server, then with the server's `privateData`), `'ETIMEDOUT'` (no answer in time),
 * `'ENETUNREACH'`, `'EHOSTUNREACH'` or `'EADDRNOTAVAIL'` (no route or no such address: the
 * errno of rdma_cm's UNREACHABLE event), `'ENOTFOUND'` or `'EAI_AGAIN'` (a host name that does
 * not resolve; `errno` EHOSTUNREACH), or `'ECONNRESET'`.
 */
export class ConnectError extends RdmaError {
  override name = 'ConnectError';
  /** The server's private data when it rejected the request (`request.reject(data)`), else null. */
  readonly privateData: Uint8Array | null;
  constructor(message: string, code: string, errno: number, privateData: Uint8Array | null = null) {
    super(message, code, errno);
    this.privateData = privateData;
  }
}

/** The connection is closed (or closing): the operation was not posted. */
export class ConnectionClosedError extends RdmaError {
  override name = 'ConnectionClosedError';
  constructor(message = 'the connection is closed') {
    super(message, 'ENOTCONN', 107);
  }
}

/** The caller's wait queue is full (`maxQueued`): the operation was not queued. */
export class QueueFullError extends RdmaError {
  override name = 'QueueFullError';
  constructor(limit: number) {
    super(`more than ${limit} operations are waiting for the connection's window (maxQueued); await some first`, 'ENOBUFS', 105);
  }
}
