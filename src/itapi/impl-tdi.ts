/**
 * IT-API 2.1 over RNICPI: the transport-dependent interface (`it_socket_convert`; IT-API 2.1
 * Ch. 6, the TDI group).
 *
 * @module
 */
import net from 'node:net';
import type { ItApi } from './api.js';
import { fail } from './objects.js';
import { it_status_t as S } from './status.js';
import { it_ep_state_rc_t as ST, it_sc_flags_t as SC } from './types.js';
import { isIb, isUint, rcEp } from './impl-common.js';

/** The TDI group of {@link ItApi}. */
export const itTdi: Pick<ItApi, 'it_socket_convert'> = {
  it_socket_convert(sd, ep_handle, flags, msg) {
    const ep = rcEp(ep_handle);
    if (!isUint(flags) || (flags & ~SC.IT_SC_NO_REQ_REP) !== 0) fail(S.IT_ERR_INVALID_FLAGS);
    if (!(sd instanceof net.Socket)) fail(S.IT_ERR_OP_NOT_SUPPORTED, 'not a TCP socket');
    if (isIb(ep.ia)) fail(S.IT_ERR_OP_NOT_SUPPORTED, 'socket conversion is iWARP only');
    if (sd.destroyed) fail(S.IT_ERR_INVALID_SD, 'the socket is closed');
    if (sd.connecting || sd.readyState !== 'open') fail(S.IT_ERR_INVALID_SD_STATE, 'the socket is not connected');
    if (msg !== null && msg !== undefined && !(msg instanceof Uint8Array)) fail(S.IT_ERR_INVALID_FLAGS, 'msg');
    if (ep.state !== ST.IT_EP_STATE_UNCONNECTED) fail(S.IT_ERR_INVALID_EP_STATE);
    ep.convert(sd, msg && msg.length > 0 ? msg : null, (flags & SC.IT_SC_NO_REQ_REP) !== 0);
  },
};
