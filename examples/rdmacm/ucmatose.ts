/**
 * ucmatose, librdmacm's connection test (rdma-core `librdmacm/examples/cmatose.c`), on softrdma's
 * rdma_cm: N RC connections at once, COUNT Sends of SIZE bytes each way, then a disconnect that
 * the server starts.
 *
 *   node dist/examples/rdmacm/ucmatose.js [-b ADDR] [-p PORT] [-c N] [-C COUNT] [-S SIZE] [-a ACK_TIMEOUT]           server
 *   node dist/examples/rdmacm/ucmatose.js -s SERVER [-b ADDR] [-p PORT] [-c N] [-C COUNT] [-S SIZE] [-a ACK_TIMEOUT]  client
 *
 * As cmatose: port 7471, 1 connection, 10 messages of 100 bytes; conn_param responder resources
 * and initiator depth 1, retry count 5; `sq_sig_all`; the server sends first, the client
 * answers, the server disconnects and every side answers DISCONNECTED with rdma_disconnect.
 * The device follows rdma_cm's rule (a client on RoCE: `SOFTRDMA_DEVICE=softroce0`).
 */
import {
  IBV_QPT_RC,
  IBV_WC_SUCCESS,
  IBV_WR_SEND,
  type ibv_cq,
  type ibv_mr,
  type ibv_pd,
  type ibv_qp_init_attr,
  type ibv_wc,
  newWc,
  RDMA_PS_TCP,
  rdma_cm_event_type as E,
  rdma_event_str,
  type rdma_cm_event,
  type rdma_cm_id,
  verbs as v,
} from '../../src/verbs/index.js';

interface Node {
  id: rdma_cm_id;
  pd: ibv_pd | null;
  scq: ibv_cq | null;
  rcq: ibv_cq | null;
  mr: ibv_mr | null;
  mem: Uint8Array;
  connected: boolean;
}

const opts = {
  server: null as string | null,
  bind: null as string | null,
  port: '7471',
  connections: 1,
  count: 10,
  size: 100,
  ackTimeout: null as number | null,
};
const argv = process.argv.slice(2);
for (let i = 0; i < argv.length; i++) {
  const a = argv[i]!;
  const val = () => argv[++i] ?? '';
  if (a === '-s') opts.server = val();
  else if (a === '-b') opts.bind = val();
  else if (a === '-p') opts.port = val();
  else if (a === '-c') opts.connections = Number(val());
  else if (a === '-C') opts.count = Number(val());
  else if (a === '-S') opts.size = Number(val());
  else if (a === '-a') opts.ackTimeout = Number(val());
  else {
    console.log(
      'usage: ucmatose [-s server_address] [-b bind_address] [-c connections] [-C message_count] [-S message_size] [-p port_number] [-a ack_timeout]',
    );
    process.exit(1);
  }
}
if (!opts.size) opts.count = 0;

const channel = v.rdma_create_event_channel()!;
const nodes: Node[] = [];
let connectsLeft = opts.connections;
let disconnectsLeft = 0;
const CONN = {
  private_data: null,
  private_data_len: 0,
  responder_resources: 1,
  initiator_depth: 1,
  flow_control: 0,
  retry_count: 5,
  rnr_retry_count: 0,
  srq: 0,
  qp_num: 0,
};

function newNode(id: rdma_cm_id): Node {
  const n: Node = { id, pd: null, scq: null, rcq: null, mr: null, mem: new Uint8Array(0), connected: false };
  nodes.push(n);
  id.context = n;
  return n;
}

/** `init_node`: PD, a send and a receive CQ of COUNT entries, the RC QP (`sq_sig_all`), the message buffer. */
function initNode(n: Node): void {
  const ctx = n.id.verbs!;
  n.pd = v.ibv_alloc_pd(ctx);
  if (!n.pd) throw new Error('cmatose: unable to allocate PD');
  const cqe = opts.count || 1;
  n.scq = v.ibv_create_cq(ctx, cqe, n, null, 0);
  n.rcq = v.ibv_create_cq(ctx, cqe, n, null, 0);
  if (!n.scq || !n.rcq) throw new Error('cmatose: unable to create CQ');
  const attr: Partial<ibv_qp_init_attr> = {
    qp_type: IBV_QPT_RC,
    sq_sig_all: 1,
    send_cq: n.scq,
    recv_cq: n.rcq,
    cap: { max_send_wr: cqe, max_recv_wr: cqe, max_send_sge: 1, max_recv_sge: 1, max_inline_data: 0 },
  };
  if (v.rdma_create_qp(n.id, n.pd, attr) !== 0) throw new Error('cmatose: unable to create QP');
  if (opts.ackTimeout !== null && v.rdma_set_option(n.id, 0, 3, opts.ackTimeout) !== 0)
    console.log('cmatose: set ack timeout option failed');
  if (!opts.count) return;
  n.mem = new Uint8Array(opts.size);
  n.mr = v.ibv_reg_mr(n.pd, n.mem, opts.size, 1);
  if (!n.mr) throw new Error('failed to reg MR');
}

function postRecvs(n: Node): void {
  for (let i = 0; i < opts.count; i++) {
    const r = v.ibv_post_recv(n.id.qp!, { wr_id: 0n, sg_list: [{ addr: n.mr!.addr, length: opts.size, lkey: n.mr!.lkey }] });
    if (r.ret !== 0) throw new Error(`failed to post receives: ${r.ret}`);
  }
}

function postSends(n: Node): void {
  if (!n.connected || !opts.count) return;
  for (let i = 0; i < opts.count; i++) {
    const r = v.ibv_post_send(n.id.qp!, {
      wr_id: 0n,
      opcode: IBV_WR_SEND,
      send_flags: 0,
      sg_list: [{ addr: n.mr!.addr, length: opts.size, lkey: n.mr!.lkey }],
    });
    if (r.ret !== 0) throw new Error(`failed to post sends: ${r.ret}`);
  }
}

/** `poll_cqs`: COUNT completions of the send or receive CQ of every connected node. */
async function pollCqs(which: 'send' | 'recv'): Promise<void> {
  for (const n of nodes) {
    if (!n.connected) continue;
    for (let done = 0; done < opts.count; ) {
      const wcs: ibv_wc[] = Array.from({ length: 8 }, () => newWc());
      const got = v.ibv_poll_cq(which === 'send' ? n.scq! : n.rcq!, 8, wcs);
      if (got < 0) throw new Error(`cmatose: failed polling CQ: ${got}`);
      if (got === 0) {
        await new Promise((r) => setImmediate(r));
        continue;
      }
      for (const wc of wcs.slice(0, got)) if (wc.status !== IBV_WC_SUCCESS) throw new Error(`cmatose: completion status ${wc.status}`);
      done += got;
    }
  }
}

async function cmaHandler(ev: rdma_cm_event): Promise<void> {
  const n = ev.id.context as Node | null;
  switch (ev.event) {
    case E.RDMA_CM_EVENT_ADDR_RESOLVED:
      if ((await v.rdma_resolve_route(ev.id, 2000)) !== 0) throw new Error('cmatose: resolve route failed');
      return;
    case E.RDMA_CM_EVENT_ROUTE_RESOLVED:
      initNode(n!);
      postRecvs(n!);
      if ((await v.rdma_connect(ev.id, CONN)) !== 0) throw new Error('cmatose: failure connecting');
      return;
    case E.RDMA_CM_EVENT_CONNECT_REQUEST: {
      if (nodes.length === opts.connections) {
        console.log('cmatose: failing connection request');
        v.rdma_reject(ev.id, null, 0);
        return;
      }
      const node = newNode(ev.id);
      initNode(node);
      postRecvs(node);
      if ((await v.rdma_accept(ev.id, null)) !== 0) throw new Error('cmatose: failure accepting');
      return;
    }
    case E.RDMA_CM_EVENT_ESTABLISHED:
      n!.connected = true;
      connectsLeft--;
      disconnectsLeft++;
      return;
    case E.RDMA_CM_EVENT_ADDR_ERROR:
    case E.RDMA_CM_EVENT_ROUTE_ERROR:
    case E.RDMA_CM_EVENT_CONNECT_ERROR:
    case E.RDMA_CM_EVENT_UNREACHABLE:
    case E.RDMA_CM_EVENT_REJECTED:
      console.log(`cmatose: event: ${rdma_event_str(ev.event)}, error: ${ev.status}`);
      connectsLeft--;
      process.exitCode = 1;
      return;
    case E.RDMA_CM_EVENT_DISCONNECTED:
      await v.rdma_disconnect(ev.id);
      disconnectsLeft--;
      return;
    default:
      return;
  }
}

async function events(left: () => number): Promise<void> {
  while (left() > 0) {
    const r = await v.rdma_get_cm_event(channel);
    if (r.ret !== 0 || !r.event) throw new Error('cmatose: failure in rdma_get_cm_event');
    try {
      await cmaHandler(r.event);
    } finally {
      v.rdma_ack_cm_event(r.event);
    }
  }
}

function destroyNode(n: Node): void {
  if (n.id.qp) v.rdma_destroy_qp(n.id);
  for (const cq of [n.scq, n.rcq]) if (cq) v.ibv_destroy_cq(cq);
  if (n.mr) v.ibv_dereg_mr(n.mr);
  if (n.pd) v.ibv_dealloc_pd(n.pd);
  v.rdma_destroy_id(n.id);
}

async function runServer(): Promise<void> {
  console.log('cmatose: starting server');
  const { id: listen } = v.rdma_create_id(channel, null, RDMA_PS_TCP);
  const ai = await v.rdma_getaddrinfo(opts.bind, opts.port, { ai_flags: 1, ai_port_space: RDMA_PS_TCP });
  if (ai.ret !== 0 || !ai.res?.ai_src_addr) throw new Error('cmatose: getaddrinfo failed');
  if (v.rdma_bind_addr(listen!, ai.res.ai_src_addr) !== 0) throw new Error('cmatose: bind address failed');
  if (v.rdma_listen(listen!, 0) !== 0) throw new Error('cmatose: failure trying to listen');
  await events(() => connectsLeft);
  if (opts.count) {
    console.log('initiating data transfers');
    for (const n of nodes) postSends(n);
    console.log('completing sends');
    await pollCqs('send');
    console.log('receiving data transfers');
    await pollCqs('recv');
    console.log('data transfers complete');
  }
  console.log('cmatose: disconnecting');
  for (const n of nodes) {
    if (!n.connected) continue;
    n.connected = false;
    await v.rdma_disconnect(n.id);
  }
  await events(() => disconnectsLeft);
  console.log('disconnected');
  v.rdma_destroy_id(listen!);
}

async function runClient(): Promise<void> {
  console.log('cmatose: starting client');
  const ai = await v.rdma_getaddrinfo(opts.server, opts.port, { ai_port_space: RDMA_PS_TCP });
  if (ai.ret !== 0 || !ai.res?.ai_dst_addr) throw new Error('cmatose: getaddrinfo failed');
  const src = opts.bind ? { family: 'ipv4' as const, address: opts.bind, port: 0 } : null;
  console.log('cmatose: connecting');
  for (let i = 0; i < opts.connections; i++) {
    const { id } = v.rdma_create_id(channel, null, RDMA_PS_TCP);
    newNode(id!);
    if ((await v.rdma_resolve_addr(id!, src, ai.res.ai_dst_addr, 2000)) !== 0) throw new Error('cmatose: failure getting addr');
  }
  await events(() => connectsLeft);
  if (opts.count && nodes.some((n) => n.connected)) {
    console.log('receiving data transfers');
    await pollCqs('recv');
    console.log('sending replies');
    for (const n of nodes) postSends(n);
    console.log('data transfers complete');
  }
  await events(() => disconnectsLeft);
}

let status = 0;
try {
  if (opts.server) await runClient();
  else await runServer();
} catch (e) {
  console.log((e as Error).message);
  status = 1;
}
console.log('test complete');
for (const n of nodes) destroyNode(n);
v.rdma_destroy_event_channel(channel);
if (status || process.exitCode) process.exitCode = 1;
console.log(`return status ${process.exitCode ?? 0}`);
