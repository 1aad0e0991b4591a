/**
 * The manual's "Multicast Code Example Using RDMA CM" (§8.5.2) in TypeScript: a UD QP made
 * with the rdma_cm, `rdma_join_multicast` on an IPv4 group, Sends with immediate data (the
 * sender's QPN, as the listing says multicast requires) to the group's QPN and Q_Key from the
 * MULTICAST_JOIN event, and `rdma_leave_multicast`. It runs on softroce0 (RoCEv2): the group
 * maps to the MGID `::ffff:G`, the join is a real IGMP membership; the iWARP device has no UD
 * (examples/verbs/iwarp_unsupported.ts).
 *
 *   node dist/examples/verbs/multicast.js -m GROUP [-b BIND_ADDR] [-c COUNT] [-l LENGTH]        receiver
 *   node dist/examples/verbs/multicast.js -m GROUP -s [-b BIND_ADDR] [-c COUNT] [-l LENGTH]     sender
 *
 * It prints what the C program prints ("waiting for messages...", "sent message N",
 * "received message N"). Where it differs (README.md):
 * - the listing's receiver never posts a receive (a UD datagram without a posted receive is
 *   dropped), so it would wait for ever: the receiver posts COUNT receives of LENGTH + 40 (the
 *   GRH) before it joins;
 * - the listing's #defines are missing; the defaults are 10 messages of 100 bytes (mckey's);
 *   a LENGTH above the port's active MTU is refused, as the listing's "Verify that the buffer
 *   length is not larger than the MTU" step intends;
 * - the listing's CM thread (it prints each CM event while data moves) is a loop on the event
 *   channel that ends when the channel is destroyed;
 * - the buffer is registered with ibv_reg_mr (Local Write, as rdma_reg_msgs) on the QP's PD:
 *   softrdma's rdma_cm ids expose no PD of their own to "copy to the context";
 * - the sender waits for each Send's completion, as the listing does; start the receivers first
 *   (a datagram sent before a member joined is not delivered, on any RDMA network).
 */
import {
  IBV_ACCESS_LOCAL_WRITE,
  IBV_QPT_UD,
  IBV_SEND_SIGNALED,
  IBV_WC_SUCCESS,
  IBV_WR_SEND_WITH_IMM,
  RAI_PASSIVE,
  RDMA_PS_UDP,
  rdma_cm_event_type as E,
  rdma_event_str,
  type ibv_ah,
  type ibv_cq,
  type ibv_mr,
  type ibv_pd,
  type ibv_wc,
  newWc,
  type rdma_cm_event,
  type rdma_cm_id,
  type rdma_event_channel,
  type sockaddr,
  verbs as v,
} from '../../src/verbs/index.js';

/** Size of `struct ibv_grh`, in front of every received UD datagram. */
const GRH = 40;

interface Context {
  sender: boolean;
  bind_addr: string | null;
  mcast_addr: string | null;
  server_port: string;
  msg_count: number;
  msg_length: number;
  mcast_sockaddr: sockaddr | null;
  id: rdma_cm_id | null;
  channel: rdma_event_channel | null;
  pd: ibv_pd | null;
  cq: ibv_cq | null;
  mr: ibv_mr | null;
  buf: Uint8Array | null;
  ah: ibv_ah | null;
  remote_qpn: number;
  remote_qkey: number;
}

const DEFAULT_PORT = '51216';
const DEFAULT_MSG_COUNT = 10;
const DEFAULT_MSG_LENGTH = 100;

const VERB_ERR = (verb: string, ret: number): void => {
  console.error(`${verb} returned ${ret} errno ${v.getErrno()}`);
};

async function get_cm_event(channel: rdma_event_channel, type: E): Promise<rdma_cm_event | null> {
  const r = await v.rdma_get_cm_event(channel);
  if (r.ret || !r.event) {
    VERB_ERR('rdma_get_cm_event', r.ret);
    return null;
  }
  if (r.event.event !== type) {
    console.log(`event: ${rdma_event_str(r.event.event)}, status: ${r.event.status}`);
    v.rdma_ack_cm_event(r.event);
    return null;
  }
  return r.event;
}

async function resolve_addr(ctx: Context): Promise<number> {
  const hints = { ai_port_space: RDMA_PS_UDP, ai_flags: 0 };
  let bind: sockaddr | null = null;
  if (ctx.bind_addr) {
    const b = await v.rdma_getaddrinfo(ctx.bind_addr, null, { ...hints, ai_flags: RAI_PASSIVE });
    if (b.ret) {
      VERB_ERR('rdma_getaddrinfo (bind)', b.ret);
      return b.ret;
    }
    bind = b.res!.ai_src_addr;
  }
  const m = await v.rdma_getaddrinfo(ctx.mcast_addr, null, hints);
  if (m.ret) {
    VERB_ERR('rdma_getaddrinfo (mcast)', m.ret);
    return m.ret;
  }
  ctx.mcast_sockaddr = m.res!.ai_dst_addr;
  if (bind) {
    const ret = v.rdma_bind_addr(ctx.id!, bind);
    if (ret) {
      VERB_ERR('rdma_bind_addr', ret);
      return ret;
    }
  }
  const ret = await v.rdma_resolve_addr(ctx.id!, bind, ctx.mcast_sockaddr!, 2000);
  if (ret) {
    VERB_ERR('rdma_resolve_addr', ret);
    return ret;
  }
  return (await get_cm_event(ctx.channel!, E.RDMA_CM_EVENT_ADDR_RESOLVED).then((ev) => (ev ? (v.rdma_ack_cm_event(ev), 0) : -1))) as number;
}

function create_resources(ctx: Context): number {
  ctx.pd = v.ibv_alloc_pd(ctx.id!.verbs!);
  if (!ctx.pd) {
    VERB_ERR('ibv_alloc_pd', -1);
    return -1;
  }
  ctx.cq = v.ibv_create_cq(ctx.id!.verbs!, Math.max(2, ctx.msg_count), null, null, 0);
  if (!ctx.cq) {
    VERB_ERR('ibv_create_cq', -1);
    return -1;
  }
  const ret = v.rdma_create_qp(ctx.id!, ctx.pd, {
    qp_type: IBV_QPT_UD,
    send_cq: ctx.cq,
    recv_cq: ctx.cq,
    cap: { max_send_wr: ctx.msg_count, max_recv_wr: ctx.msg_count, max_send_sge: 1, max_recv_sge: 1, max_inline_data: 0 },
  });
  if (ret) {
    VERB_ERR('rdma_create_qp', ret);
    return ret;
  }
  // The receiver must allow enough space in the receive buffer for the GRH.
  const size = ctx.msg_length + (ctx.sender ? 0 : GRH);
  ctx.buf = new Uint8Array(size);
  // The listing's rdma_reg_msgs registers on the id's PD, the one librdmacm made when the id was
  // bound ("copy it to the context"); softrdma's ids expose none, so the QP's PD is allocated
  // here and the buffer registered on it with what rdma_reg_msgs asks (Local Write). An MR on
  // another PD than the QP's would fail every Send with a local protection error.
  ctx.mr = v.ibv_reg_mr(ctx.pd, ctx.buf, size, IBV_ACCESS_LOCAL_WRITE);
  if (!ctx.mr) {
    VERB_ERR('rdma_reg_msgs', -1);
    return -1;
  }
  return 0;
}

function destroy_resources(ctx: Context): void {
  if (ctx.ah) v.ibv_destroy_ah(ctx.ah);
  if (ctx.id?.qp) v.rdma_destroy_qp(ctx.id);
  if (ctx.cq) v.ibv_destroy_cq(ctx.cq);
  if (ctx.mr) v.ibv_dereg_mr(ctx.mr);
  if (ctx.pd) v.ibv_dealloc_pd(ctx.pd);
  if (ctx.id) v.rdma_destroy_id(ctx.id);
}

/** Posts the receives the listing omits: one per message, LENGTH + the GRH each. */
function post_recvs(ctx: Context): number {
  for (let i = 0; i < ctx.msg_count; i++) {
    const r = v.ibv_post_recv(ctx.id!.qp!, {
      wr_id: BigInt(i),
      sg_list: [{ addr: ctx.mr!.addr, length: ctx.msg_length + GRH, lkey: ctx.mr!.lkey }],
    });
    if (r.ret) {
      VERB_ERR('ibv_post_recv', r.ret);
      return r.ret;
    }
  }
  return 0;
}

function post_send(ctx: Context): number {
  ctx.buf!.fill(0x12, 0, ctx.msg_length); // set the data to non-zero
  // Multicast requires that the message is sent with immediate data and that the QP number is
  // the contents of the immediate data.
  const r = v.ibv_post_send(ctx.id!.qp!, {
    wr_id: 0n,
    opcode: IBV_WR_SEND_WITH_IMM,
    send_flags: IBV_SEND_SIGNALED,
    imm_data: ctx.id!.qp!.qp_num,
    sg_list: [{ addr: ctx.mr!.addr, length: ctx.msg_length, lkey: ctx.mr!.lkey }],
    wr: { ud: { ah: ctx.ah!, remote_qpn: ctx.remote_qpn, remote_qkey: ctx.remote_qkey } },
  });
  if (r.ret) {
    VERB_ERR('ibv_post_send', r.ret);
    return -1;
  }
  return 0;
}

/** Waits for a completion and checks that the operation succeeded. */
async function get_completion(ctx: Context): Promise<number> {
  const wc: ibv_wc[] = [newWc()];
  for (;;) {
    const ret = v.ibv_poll_cq(ctx.cq!, 1, wc);
    if (ret < 0) {
      VERB_ERR('ibv_poll_cq', ret);
      return -1;
    }
    if (ret === 1) break;
    await new Promise((r) => setImmediate(r));
  }
  if (wc[0]!.status !== IBV_WC_SUCCESS) {
    console.log(`work completion status ${wc[0]!.status}`);
    return -1;
  }
  return 0;
}

/** The listing's cm_thread: prints the CM events that occur while data moves. */
async function cm_thread(ctx: Context): Promise<void> {
  for (;;) {
    const r = await v.rdma_get_cm_event(ctx.channel!);
    if (r.ret || !r.event) return; // the channel was destroyed
    console.log(`event ${rdma_event_str(r.event.event)}, status ${r.event.status}`);
    v.rdma_ack_cm_event(r.event);
  }
}

function usage(argv0: string): never {
  console.log(`usage: ${argv0} -m mc_address`);
  console.log('\t[-s[ender mode]');
  console.log('\t[-b bind_address]');
  console.log('\t[-c msg_count]');
  console.log('\t[-l msg_length]');
  process.exit(1);
}

async function main(argv: string[]): Promise<number> {
  const ctx: Context = {
    sender: false,
    bind_addr: null,
    mcast_addr: null,
    server_port: DEFAULT_PORT,
    msg_count: DEFAULT_MSG_COUNT,
    msg_length: DEFAULT_MSG_LENGTH,
    mcast_sockaddr: null,
    id: null,
    channel: null,
    pd: null,
    cq: null,
    mr: null,
    buf: null,
    ah: null,
    remote_qpn: 0,
    remote_qkey: 0,
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const arg = (): string => argv[++i] ?? usage('multicast');
    if (a === '-s') ctx.sender = true;
    else if (a === '-b') ctx.bind_addr = arg();
    else if (a === '-m') ctx.mcast_addr = arg();
    else if (a === '-p') ctx.server_port = arg();
    else if (a === '-c') ctx.msg_count = Number.parseInt(arg(), 10);
    else if (a === '-l') ctx.msg_length = Number.parseInt(arg(), 10);
    else usage('multicast');
  }
  if (!(ctx.msg_count > 0) || !(ctx.msg_length > 0)) usage('multicast');
  if (ctx.mcast_addr === null) {
    console.log('multicast address must be specified with -m');
    return 1;
  }
  ctx.channel = v.rdma_create_event_channel();
  if (!ctx.channel) {
    VERB_ERR('rdma_create_event_channel', -1);
    return 1;
  }
  const { ret: cr, id } = v.rdma_create_id(ctx.channel, null, RDMA_PS_UDP);
  if (cr) {
    VERB_ERR('rdma_create_id', -1);
    return 1;
  }
  ctx.id = id;
  let ret = 0;
  let joined = false;
  out: {
    ret = await resolve_addr(ctx);
    if (ret) break out;
    // Verify that the buffer length is not larger than the MTU.
    const port = { active_mtu: 0 } as { active_mtu: number };
    ret = v.ibv_query_port(ctx.id!.verbs!, ctx.id!.port_num, port as never);
    if (ret) {
      VERB_ERR('ibv_query_port', ret);
      break out;
    }
    const mtu = 1 << (port.active_mtu + 7);
    if (ctx.msg_length > mtu) {
      console.log(`msg_length ${ctx.msg_length} is larger than the active MTU ${mtu}`);
      ret = 1;
      break out;
    }
    ret = create_resources(ctx);
    if (ret) break out;
    if (!ctx.sender) {
      ret = post_recvs(ctx);
      if (ret) break out;
    }
    // Join the multicast group.
    ret = await v.rdma_join_multicast(ctx.id!, ctx.mcast_sockaddr!, null);
    if (ret) {
      VERB_ERR('rdma_join_multicast', ret);
      break out;
    }
    joined = true;
    // Verify that we successfully joined the multicast group.
    const event = await get_cm_event(ctx.channel, E.RDMA_CM_EVENT_MULTICAST_JOIN);
    if (!event) {
      ret = 1;
      break out;
    }
    ctx.remote_qpn = event.param.ud.qp_num;
    ctx.remote_qkey = event.param.ud.qkey;
    if (ctx.sender) {
      // Create an address handle for the sender.
      ctx.ah = v.ibv_create_ah(ctx.pd!, event.param.ud.ah_attr);
      if (!ctx.ah) {
        VERB_ERR('ibv_create_ah', -1);
        v.rdma_ack_cm_event(event);
        ret = 1;
        break out;
      }
    }
    v.rdma_ack_cm_event(event);
    // Handle any CM events while messages are exchanged.
    void cm_thread(ctx);
    if (!ctx.sender) console.log('waiting for messages...');
    for (let i = 0; i < ctx.msg_count; i++) {
      if (ctx.sender) {
        ret = post_send(ctx);
        if (ret) break out;
      }
      ret = await get_completion(ctx);
      if (ret) break out;
      console.log(ctx.sender ? `sent message ${i + 1}` : `received message ${i + 1}`);
    }
  }
  if (joined) {
    const r = v.rdma_leave_multicast(ctx.id!, ctx.mcast_sockaddr!);
    if (r) {
      VERB_ERR('rdma_leave_multicast', r);
      ret ||= r;
    }
  }
  destroy_resources(ctx);
  v.rdma_destroy_event_channel(ctx.channel);
  return ret ? 1 : 0;
}

main(process.argv.slice(2)).then(
  (rc) => {
    process.exitCode = rc;
  },
  (e: unknown) => {
    console.error(e);
    process.exitCode = 1;
  },
);
