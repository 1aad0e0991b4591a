/**
 * The CLI's words for failures: a refused, unreachable or reset connection by its errno name,
 * and the last verbs/rdma_cm error with its message, so that a user sees what went wrong and
 * what to try instead of an event number.
 */
import { rdma_cm_event_type as E, rdma_event_str } from '../verbs/constants.js';
import { ECONNREFUSED, ENETDOWN, errnoString, softrdmaLastError } from '../verbs/errno.js';
import { CmRejReason, cmRejReasonName } from '../wire/ib/cm.js';

/** The last verbs / rdma_cm failure in words (`softrdmaLastError().message`). */
export function lastError(): string {
  return softrdmaLastError().message;
}

/**
 * One line for a connection attempt to `peer` ("ADDR:PORT") that ended in `ev` (or in nothing)
 * instead of ESTABLISHED: what happened, the errno by name, and a hint.
 */
export function connectFailure(ev: { event: number; status: number } | null, peer: string): string {
  if (!ev) return `connection to ${peer}: no answer from the connection manager`;
  const err = ev.status ? errnoString(ev.status) : 'no status';
  switch (ev.event) {
    case E.RDMA_CM_EVENT_REJECTED:
      // On RoCE the status is the IB CM's REJ reason (positive), as Linux reports it.
      if (ev.status > 0) {
        const why = `REJ reason ${ev.status} (${cmRejReasonName(ev.status)})`;
        return ev.status === CmRejReason.INVALID_SERVICE_ID
          ? `connection to ${peer} refused: ${why}; is a server running and listening on that address and port?`
          : `connection to ${peer} rejected by the peer: ${why}`;
      }
      return -ev.status === ECONNREFUSED
        ? `connection to ${peer} refused: ${err}; is a server running and listening on that address and port?`
        : `connection to ${peer} rejected by the peer: ${err}`;
    case E.RDMA_CM_EVENT_UNREACHABLE:
      // ENETDOWN: our own RoCE port failed (its UDP 4791 endpoint could not be bound or was lost).
      if (-ev.status === ENETDOWN)
        return `connection to ${peer} failed: ${err} on this side; is another RoCE stack (a softrdma process, rxe) using UDP port 4791 on that address? (DEBUG=softrdma:roce:net tells)`;
      return `${peer} unreachable: ${err}; check the address, the port and any firewall`;
    case E.RDMA_CM_EVENT_CONNECT_ERROR:
      return `connection to ${peer} failed: ${err}`;
    default:
      return `connection to ${peer}: unexpected ${rdma_event_str(ev.event as E)}${ev.status ? `, ${err}` : ''}`;
  }
}
