/**
 * rdma_cm and the CM's bounds: `rdma_accept` caps IRD/ORD as librdmacm does
 * (a NULL `conn_param` or `RDMA_MAX_*` takes the request's values capped to the device; an
 * explicit value above the device's limit is EINVAL and leaves the request pending), and a
 * request the program never answers is rejected by the CM after `SOFTRDMA_MPA accept=MS`: the
 * client gets REJECTED, the request's id CONNECT_ERROR with -ETIMEDOUT.
 */
import assert from 'node:assert/strict';
import { once } from 'node:events';
import net from 'node:net';
import { test } from 'node:test';
import { RDMA_MAX_INIT_DEPTH, RDMA_MAX_RESP_RES, rdma_cm_event_type as E, rdma_port_space } from '../../src/verbs/constants.js';
import { EINVAL, getErrno } from '../../src/verbs/errno.js';
import {
  rdma_accept,
  rdma_ack_cm_event,
  rdma_bind_addr,
  rdma_connect,
  rdma_create_event_channel,
  rdma_create_id,
  rdma_create_qp,
  rdma_destroy_id,
  rdma_destroy_qp,
  rdma_get_cm_event,
  rdma_get_src_port,
  rdma_listen,
  rdma_resolve_addr,
  rdma_resolve_route,
  rdmaListenReady,
} from '../../src/verbs/rdma_cm.js';
import type { rdma_cm_event, rdma_cm_id, rdma_event_channel } from '../../src/verbs/types.js';
import { decodeMpaIrdOrd, decodeMpaReqRep, encodeMpaIrdOrd, encodeMpaReqRep } from '../../src/wire/mpa.js';

const T = { timeout: 60_000 };
const CAP = { max_send_wr: 4, max_recv_wr: 4, max_send_sge: 1, max_recv_sge: 1 };
const ETIMEDOUT = 110;
const ECONNREFUSED = 111;

async function next(ch: rdma_event_channel, want: E): Promise<rdma_cm_event> {
  const r = await rdma_get_cm_event(ch);
  assert.equal(r.ret, 0);
  assert.equal(E[r.event!.event], E[want], `event ${E[r.event!.event]} status ${r.event!.status}`);
  return r.event!;
}

async function listener(env?: string): Promise<{ ch: rdma_event_channel; id: rdma_cm_id; port: number }> {
  const saved = process.env.SOFTRDMA_MPA;
  if (env === undefined) delete process.env.SOFTRDMA_MPA;
  else process.env.SOFTRDMA_MPA = env;
  try {
    const ch = rdma_create_event_channel()!;
    const { id } = rdma_create_id(ch, 'srv', rdma_port_space.RDMA_PS_TCP);
    assert.equal(rdma_bind_addr(id!, { family: 'ipv4', address: '127.0.0.1', port: 0 }), 0);
    assert.equal(rdma_listen(id!, 3), 0);
    await rdmaListenReady(id!);
    return { ch, id: id!, port: rdma_get_src_port(id!) };
  } finally {
    if (saved === undefined) delete process.env.SOFTRDMA_MPA;
    else process.env.SOFTRDMA_MPA = saved;
  }
}

/** A raw Initiator: an enhanced MPA Request with `ird`/`ord`; resolves with the Reply's R flag and word. */
async function rawRequest(
  port: number,
  ird: number,
  ord: number,
): Promise<{ sock: net.Socket; reply: Promise<{ reject: boolean; ird: number; ord: number }> }> {
  const sock = net.connect({ port, host: '127.0.0.1' });
  sock.on('error', () => {});
  await once(sock, 'connect');
  const word = encodeMpaIrdOrd({
    ird,
    ord,
    peerToPeer: false,
    zeroLengthSendRtr: false,
    zeroLengthWriteRtr: false,
    zeroLengthReadRtr: false,
  });
  sock.write(
    encodeMpaReqRep({ type: 'request', markers: false, crc: false, reject: false, enhanced: true, res: 0, revision: 2, privateData: word }),
  );
  let buf = Buffer.alloc(0);
  const reply = new Promise<{ reject: boolean; ird: number; ord: number }>((resolve, reject) => {
    sock.on('data', (d: Buffer) => {
      buf = Buffer.concat([buf, d]);
      const r = decodeMpaReqRep(new Uint8Array(buf), 'reply');
      if (r.status === 'frame') {
        const w = decodeMpaIrdOrd(r.frame.privateData);
        resolve({ reject: r.frame.reject, ird: w.ird, ord: w.ord });
      }
    });
    sock.once('close', () => reject(new Error('closed without a Reply')));
  });
  reply.catch(() => {});
  return { sock, reply };
}

test(
  "rdma_accept with responder_resources or initiator_depth above the device limit is EINVAL and the request stays pending; NULL then caps the peer's 16383 to 128",
  T,
  async () => {
    const srv = await listener();
    const raw = await rawRequest(srv.port, 0x3fff, 0x3fff);
    const req = await next(srv.ch, E.RDMA_CM_EVENT_CONNECT_REQUEST);
    assert.equal(req.param.conn.initiator_depth, 0x3fff);
    assert.equal(req.param.conn.responder_resources, 0x3fff);
    const sid = req.id;
    assert.equal(rdma_create_qp(sid, null, { cap: CAP, qp_type: 2 }), 0);
    // The peer's values passed through unchecked: refused before anything is sent (ucma_valid_param).
    assert.equal(
      await rdma_accept(sid, { responder_resources: req.param.conn.responder_resources, initiator_depth: req.param.conn.initiator_depth }),
      -1,
    );
    assert.equal(getErrno(), EINVAL);
    assert.equal(await rdma_accept(sid, { responder_resources: 129, initiator_depth: 1 }), -1);
    assert.equal(getErrno(), EINVAL);
    // NULL, as rping passes: the request's values capped to the device.
    assert.equal(await rdma_accept(sid, null), 0);
    rdma_ack_cm_event(req);
    const r = await raw.reply;
    assert.deepEqual(r, { reject: false, ird: 128, ord: 128 });
    rdma_ack_cm_event(await next(srv.ch, E.RDMA_CM_EVENT_ESTABLISHED));
    raw.sock.destroy();
    rdma_ack_cm_event(await next(srv.ch, E.RDMA_CM_EVENT_DISCONNECTED));
    rdma_destroy_qp(sid);
    assert.equal(rdma_destroy_id(sid), 0);
    assert.equal(rdma_destroy_id(srv.id), 0);
  },
);

test("rdma_accept with RDMA_MAX_RESP_RES / RDMA_MAX_INIT_DEPTH takes the request's values capped to the device", T, async () => {
  const srv = await listener();
  const raw = await rawRequest(srv.port, 7, 300);
  const req = await next(srv.ch, E.RDMA_CM_EVENT_CONNECT_REQUEST);
  assert.equal(rdma_create_qp(req.id, null, { cap: CAP, qp_type: 2 }), 0);
  assert.equal(await rdma_accept(req.id, { responder_resources: RDMA_MAX_RESP_RES, initiator_depth: RDMA_MAX_INIT_DEPTH }), 0);
  rdma_ack_cm_event(req);
  // Our ORD = min(peer IRD 7, 128); our IRD = min(peer ORD 300, 128).
  assert.deepEqual(await raw.reply, { reject: false, ird: 128, ord: 7 });
  rdma_ack_cm_event(await next(srv.ch, E.RDMA_CM_EVENT_ESTABLISHED));
  raw.sock.destroy();
  rdma_ack_cm_event(await next(srv.ch, E.RDMA_CM_EVENT_DISCONNECTED));
  rdma_destroy_qp(req.id);
  assert.equal(rdma_destroy_id(req.id), 0);
  assert.equal(rdma_destroy_id(srv.id), 0);
});

test(
  "a request the program never answers is rejected by the CM after SOFTRDMA_MPA accept=MS: REJECTED at the client, CONNECT_ERROR -ETIMEDOUT on the request's id",
  T,
  async () => {
    const srv = await listener('accept=200');
    const cch = rdma_create_event_channel()!;
    const { id: cid } = rdma_create_id(cch, 'cli', rdma_port_space.RDMA_PS_TCP);
    assert.equal(await rdma_resolve_addr(cid!, null, { family: 'ipv4', address: '127.0.0.1', port: srv.port }, 2000), 0);
    rdma_ack_cm_event(await next(cch, E.RDMA_CM_EVENT_ADDR_RESOLVED));
    assert.equal(await rdma_resolve_route(cid!, 2000), 0);
    rdma_ack_cm_event(await next(cch, E.RDMA_CM_EVENT_ROUTE_RESOLVED));
    assert.equal(rdma_create_qp(cid!, null, { cap: CAP, qp_type: 2 }), 0);
    assert.equal(await rdma_connect(cid!, null), 0);
    // The server takes the request and then does nothing with it (the rping wedge).
    const req = await next(srv.ch, E.RDMA_CM_EVENT_CONNECT_REQUEST);
    rdma_ack_cm_event(req);
    const rej = await next(cch, E.RDMA_CM_EVENT_REJECTED);
    assert.equal(rej.status, -ECONNREFUSED);
    rdma_ack_cm_event(rej);
    const err = await next(srv.ch, E.RDMA_CM_EVENT_CONNECT_ERROR);
    assert.equal(err.id, req.id);
    assert.equal(err.status, -ETIMEDOUT);
    rdma_ack_cm_event(err);
    // Too late to accept now.
    assert.equal(rdma_create_qp(req.id, null, { cap: CAP, qp_type: 2 }), 0);
    assert.equal(await rdma_accept(req.id, null), -1);
    rdma_destroy_qp(req.id);
    assert.equal(rdma_destroy_id(req.id), 0);
    rdma_destroy_qp(cid!);
    assert.equal(rdma_destroy_id(cid!), 0);
    assert.equal(rdma_destroy_id(srv.id), 0);
  },
);
