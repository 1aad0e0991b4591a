/**
 * udaddy, librdmacm's UD example (rdma-core `librdmacm/examples/udaddy.c`), on softrdma's
 * rdma_cm: RDMA_PS_UDP ids, service ID resolution (SIDR) instead of a connection, UD QPs, Sends
 * with immediate data, and replies addressed from the received completion.
 *
 *   node dist/examples/rdmacm/udaddy.js [-b ADDR] [-c N] [-C COUNT] [-S SIZE]    server
 *   node dist/examples/rdmacm/udaddy.js -s SERVER [-b ADDR] [-c N] [-C COUNT] [-S SIZE]   client
 *
 * The client resolves the server, sends a SIDR request (rdma_connect on an RDMA_PS_UDP id), and
 * on ESTABLISHED makes an address handle from `param.ud` and sends COUNT messages of SIZE bytes
 * with its QP number as immediate data. The server receives them, builds a reply address handle
 * from the first completion (`ibv_create_ah_from_wc`; the QPN is the immediate, the Q_Key its
 * own QP's) and sends COUNT replies. Defaults as udaddy: 1 connection, 10 messages of 100 bytes;
 * the port is udaddy's fixed 7174 and `-p`/`-P` name the port space (only RDMA_PS_UDP, 0x111,
 * is supported: there is no IPoIB). UD lives on the RoCE device only, so rdma_cm puts these ids
 * on softroce0.
 */
import {
  IBV_QP_QKEY,
  IBV_QPT_UD,
  IBV_SEND_SIGNALED,
  IBV_WC_SUCCESS,
  IBV_WR_SEND_WITH_IMM,
  type ibv_ah,
  type ibv_cq,
  type ibv_mr,
  type ibv_pd,
  type ibv_qp_attr,
  type ibv_qp_init_attr,
  type ibv_wc,
  newWc,
  RDMA_PS_UDP,
  rdma_cm_event_type as E,
  rdma_event_str,
  type rdma_cm_event,
  type rdma_cm_id,
  verbs as v,
} from '../../src/verbs/index.js';

const GRH = 40;

interface Node {
  id: rdma_cm_id;
  pd: ibv_pd | null;
  cq: ibv_cq | null;
  mr: ibv_mr | null;
  mem: Uint8Array;
  ah: ibv_ah | null;
  remoteQpn: number;
  remoteQkey: number;
  connected: boolean;
}

const opts = {
  server: null as string | null,
  bind: null as string | null,
  port: '7174',
  ps: RDMA_PS_UDP as number,
  connections: 1,
  count: 10,
  size: 100,
};
const argv = process.argv.slice(2);
for (let i = 0; i < argv.length; i++) {
  const a = argv[i]!;
  const val = () => argv[++i] ?? '';
  if (a === '-s') opts.server = val();
  else if (a === '-b') opts.bind = val();
  else if (a === '-p')
    opts.ps = Number(val()); // strtol(…, 0): "0x111" or "273"
  else if (a === '-P') opts.ps = val() === 'udp' ? RDMA_PS_UDP : -1;
  else if (a === '-c') opts.connections = Number(val());
  else if (a === '-C') opts.count = Number(val());
  else if (a === '-S') opts.size = Number(val());
  else {
    console.log(
      'usage: udaddy [-s server_address] [-b bind_address] [-P udp] [-c connections] [-C message_count] [-S message_size] [-p port_space - 0x111 for UDP (default)]',
    );
    process.exit(1);
  }
}
if (opts.ps !== RDMA_PS_UDP) {
  console.log('udaddy: only the UDP port space (0x111) is supported (softrdma has no IPoIB)');
  process.exit(1);
}
if (!opts.size) opts.count = 0;

const channel = v.rdma_create_event_channel()!;
const nodes: Node[] = [];
let connectsLeft = opts.connections;

/** `init_node`: PD, one CQ (sends and receives), the UD QP, the message buffer (GRH + SIZE). */
function initNode(n: Node): void {
  const ctx = n.id.verbs!;
  const port = { active_mtu: 0 } as { active_mtu: number };
  v.ibv_query_port(ctx, n.id.port_num, port as never);
  if (opts.count && opts.size > 1 << (port.active_mtu + 7))
    throw new Error(`udaddy: message_size ${opts.size} is larger than active mtu ${1 << (port.active_mtu + 7)}`);
  n.pd = v.ibv_alloc_pd(ctx);
  if (!n.pd) throw new Error('udaddy: unable to allocate PD');
  const cqe = opts.count ? opts.count * 2 : 2;
  n.cq = v.ibv_create_cq(ctx, cqe, n, null, 0);
  if (!n.cq) throw new Error('udaddy: unable to create CQ');
  const attr: Partial<ibv_qp_init_attr> = {
    qp_type: IBV_QPT_UD,
    send_cq: n.cq,
    recv_cq: n.cq,
    cap: { max_send_wr: opts.count || 1, max_recv_wr: opts.count || 1, max_send_sge: 1, max_recv_sge: 1, max_inline_data: 0 },
  };
  if (v.rdma_create_qp(n.id, n.pd, attr) !== 0) throw new Error('udaddy: unable to create QP');
  n.mem = new Uint8Array(opts.size + GRH);
  n.mr = v.ibv_reg_mr(n.pd, n.mem, n.mem.length, 1);
  if (!n.mr) throw new Error('failed to reg MR');
}

function postRecvs(n: Node): void {
  for (let i = 0; i < opts.count; i++) {
    const r = v.ibv_post_recv(n.id.qp!, { wr_id: 0n, sg_list: [{ addr: n.mr!.addr, length: opts.size + GRH, lkey: n.mr!.lkey }] });
    if (r.ret !== 0) throw new Error(`failed to post receives: ${r.ret}`);
  }
}

function postSends(n: Node, flags: number): void {
  if (!n.connected || !opts.count) return;
  for (let i = 0; i < opts.count; i++) {
    const r = v.ibv_post_send(n.id.qp!, {
      wr_id: 0n,
      opcode: IBV_WR_SEND_WITH_IMM,
      send_flags: flags,
      imm_data: n.id.qp!.qp_num,
      sg_list: [{ addr: n.mr!.addr + BigInt(GRH), length: opts.size, lkey: n.mr!.lkey }],
      wr: { ud: { ah: n.ah!, remote_qpn: n.remoteQpn, remote_qkey: n.remoteQkey } },
    });
    if (r.ret !== 0) throw new Error(`failed to post sends: ${r.ret}`);
  }
}

/** `create_reply_ah`: the address handle back to the sender of `wc`, its QPN from the immediate. */
function createReplyAh(n: Node, wc: ibv_wc): void {
  n.ah = v.ibv_create_ah_from_wc(n.pd!, wc, n.mem, n.id.port_num);
  if (!n.ah) throw new Error('udaddy: failed to create reply AH');
  n.remoteQpn = wc.imm_data >>> 0;
  const attr = {} as ibv_qp_attr;
  if (v.ibv_query_qp(n.id.qp!, attr, IBV_QP_QKEY, {} as ibv_qp_init_attr) !== 0) throw new Error('ibv_query_qp');
  n.remoteQkey = attr.qkey;
}

/** `poll_cqs`: COUNT completions per connected node (the first one makes the reply AH). */
async function pollCqs(): Promise<void> {
  for (const n of nodes) {
    if (!n.connected) continue;
    for (let done = 0; done < opts.count; ) {
      const wcs: ibv_wc[] = Array.from({ length: 8 }, () => newWc());
      const got = v.ibv_poll_cq(n.cq!, 8, wcs);
      if (got < 0) throw new Error(`udaddy: failed polling CQ: ${got}`);
      if (got === 0) {
        await new Promise((r) => setImmediate(r));
        continue;
      }
      for (const wc of wcs.slice(0, got)) if (wc.status !== IBV_WC_SUCCESS) throw new Error(`udaddy: completion status ${wc.status}`);
      if (!n.ah) createReplyAh(n, wcs[0]!);
      done += got;
    }
  }
}

async function cmaHandler(ev: rdma_cm_event): Promise<void> {
  const n = ev.id.context as Node | null;
  switch (ev.event) {
    case E.RDMA_CM_EVENT_ADDR_RESOLVED:
      if ((await v.rdma_resolve_route(ev.id, 2000)) !== 0) throw new Error('udaddy: resolve route failed');
      return;
    case E.RDMA_CM_EVENT_ROUTE_RESOLVED:
      initNode(n!);
      postRecvs(n!);
      if (
        (await v.rdma_connect(ev.id, {
          private_data: null,
          private_data_len: 0,
          responder_resources: 0,
          initiator_depth: 0,
          flow_control: 0,
          retry_count: 0,
          rnr_retry_count: 0,
          srq: 0,
          qp_num: 0,
        })) !== 0
      )
        throw new Error('udaddy: failure connecting');
      return;
    case E.RDMA_CM_EVENT_CONNECT_REQUEST: {
      if (nodes.length === opts.connections) {
        console.log('udaddy: failing connection request');
        v.rdma_reject(ev.id, null, 0);
        return;
      }
      const node = newNode(ev.id);
      ev.id.context = node;
      initNode(node);
      postRecvs(node);
      if (
        (await v.rdma_accept(ev.id, {
          private_data: null,
          private_data_len: 0,
          responder_resources: 0,
          initiator_depth: 0,
          flow_control: 0,
          retry_count: 0,
          rnr_retry_count: 0,
          srq: 0,
          qp_num: ev.id.qp!.qp_num,
        })) !== 0
      )
        throw new Error('udaddy: failure accepting');
      node.connected = true;
      connectsLeft--;
      return;
    }
    case E.RDMA_CM_EVENT_ESTABLISHED:
      n!.remoteQpn = ev.param.ud.qp_num;
      n!.remoteQkey = ev.param.ud.qkey;
      n!.ah = v.ibv_create_ah(n!.pd!, ev.param.ud.ah_attr);
      if (!n!.ah) throw new Error('udaddy: failure creating address handle');
      n!.connected = true;
      connectsLeft--;
      return;
    case E.RDMA_CM_EVENT_ADDR_ERROR:
    case E.RDMA_CM_EVENT_ROUTE_ERROR:
    case E.RDMA_CM_EVENT_CONNECT_ERROR:
    case E.RDMA_CM_EVENT_UNREACHABLE:
    case E.RDMA_CM_EVENT_REJECTED:
      console.log(`udaddy: event: ${rdma_event_str(ev.event)}, error: ${ev.status}`);
      connectsLeft--;
      process.exitCode = 1;
      return;
    default:
      return;
  }
}

function newNode(id: rdma_cm_id): Node {
  const n: Node = { id, pd: null, cq: null, mr: null, mem: new Uint8Array(0), ah: null, remoteQpn: 0, remoteQkey: 0, connected: false };
  nodes.push(n);
  return n;
}

async function connectEvents(): Promise<void> {
  while (connectsLeft > 0) {
    const r = await v.rdma_get_cm_event(channel);
    if (r.ret !== 0 || !r.event) throw new Error('rdma_get_cm_event');
    try {
      await cmaHandler(r.event);
    } finally {
      v.rdma_ack_cm_event(r.event);
    }
  }
}

function destroyNode(n: Node): void {
  if (n.ah) v.ibv_destroy_ah(n.ah);
  if (n.id.qp) v.rdma_destroy_qp(n.id);
  if (n.cq) v.ibv_destroy_cq(n.cq);
  if (n.mr) v.ibv_dereg_mr(n.mr);
  if (n.pd) v.ibv_dealloc_pd(n.pd);
  v.rdma_destroy_id(n.id);
}

async function runServer(): Promise<void> {
  console.log('udaddy: starting server');
  const { id: listen } = v.rdma_create_id(channel, null, RDMA_PS_UDP);
  const ai = await v.rdma_getaddrinfo(opts.bind, opts.port, { ai_flags: 1, ai_port_space: RDMA_PS_UDP });
  if (ai.ret !== 0 || !ai.res?.ai_src_addr) throw new Error('udaddy: getaddrinfo failed');
  if (v.rdma_bind_addr(listen!, ai.res.ai_src_addr) !== 0) throw new Error('udaddy: bind address failed');
  if (v.rdma_listen(listen!, 0) !== 0) throw new Error('udaddy: failure trying to listen');
  await connectEvents();
  if (opts.count) {
    console.log('receiving data transfers');
    await pollCqs();
    console.log('sending replies');
    for (const n of nodes) postSends(n, IBV_SEND_SIGNALED);
    await pollCqs();
    console.log('data transfers complete');
  }
  v.rdma_destroy_id(listen!);
}

async function runClient(): Promise<void> {
  console.log('udaddy: starting client');
  const ai = await v.rdma_getaddrinfo(opts.server, opts.port, { ai_port_space: RDMA_PS_UDP });
  if (ai.ret !== 0 || !ai.res?.ai_dst_addr) throw new Error('udaddy: getaddrinfo failed');
  const src = opts.bind ? { family: 'ipv4' as const, address: opts.bind, port: 0 } : null;
  console.log('udaddy: connecting');
  for (let i = 0; i < opts.connections; i++) {
    const { id } = v.rdma_create_id(channel, null, RDMA_PS_UDP);
    const n = newNode(id!);
    id!.context = n;
    if ((await v.rdma_resolve_addr(id!, src, ai.res.ai_dst_addr, 2000)) !== 0) throw new Error('udaddy: failure getting addr');
  }
  await connectEvents();
  if (opts.count && nodes.some((n) => n.connected)) {
    console.log('initiating data transfers');
    for (const n of nodes) postSends(n, 0);
    console.log('receiving data transfers');
    await pollCqs();
    console.log('data transfers complete');
  }
}

try {
  if (opts.server) await runClient();
  else await runServer();
  console.log('test complete');
} catch (e) {
  console.log((e as Error).message);
  process.exitCode = 1;
} finally {
  for (const n of nodes) destroyNode(n);
  v.rdma_destroy_event_channel(channel);
}
