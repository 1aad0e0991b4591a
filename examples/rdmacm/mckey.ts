/**
 * mckey, librdmacm's multicast test (rdma-core `librdmacm/examples/mckey.c`; the manual's §8.3–8.4
 * program), on softrdma's rdma_cm over RoCEv2: an RDMA_PS_UDP id joins an IPv4 multicast group
 * (`rdma_join_multicast`: the MGID `::ffff:G`, the UD QP attached, a real IGMP join), the
 * sender sends COUNT datagrams to QPN 0xFFFFFF, the receivers each get a copy.
 *
 *   node dist/examples/rdmacm/mckey.js -m GROUP [-b ADDR] [-c N] [-C COUNT] [-S SIZE]        receiver
 *   node dist/examples/rdmacm/mckey.js -m GROUP -s [-o] [-b ADDR] [-c N] [-C COUNT] [-S SIZE] sender
 *
 * `-o` joins as a send-only full member (`rdma_join_multicast_ex` with
 * RDMA_MC_JOIN_FLAG_SENDONLY_FULLMEMBER): the QP is not attached and receives nothing from the
 * group. `-l` is accepted and changes nothing: a member never receives its own datagrams here.
 *
 * As mckey: 10 messages of 100 bytes, Sends with immediate data (the QPN), a 3 s pause after
 * the join before sending; `-p` names the port space (only RDMA_PS_UDP, 0x111). One difference:
 * the sender's last Send is signaled and awaited before it leaves the group, so the datagrams
 * are out before its QP goes (the C program relies on the hardware having sent them).
 * The interface must carry multicast (Linux `lo` needs `ip link set lo multicast on` and a route
 * for 224.0.0.0/4).
 */
import { isIP } from 'node:net';
import {
  IBV_QPT_UD,
  IBV_SEND_SIGNALED,
  IBV_WC_SUCCESS,
  IBV_WR_SEND_WITH_IMM,
  type ibv_ah,
  type ibv_cq,
  type ibv_mr,
  type ibv_pd,
  type ibv_qp_init_attr,
  type ibv_wc,
  newWc,
  RDMA_CM_JOIN_MC_ATTR_ADDRESS,
  RDMA_CM_JOIN_MC_ATTR_JOIN_FLAGS,
  RDMA_MC_JOIN_FLAG_SENDONLY_FULLMEMBER,
  RDMA_PS_UDP,
  rdma_cm_event_type as E,
  rdma_event_str,
  type rdma_cm_event,
  type rdma_cm_id,
  type sockaddr,
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
  group: null as string | null,
  sender: false,
  bind: null as string | null,
  ps: RDMA_PS_UDP as number,
  connections: 1,
  count: 10,
  size: 100,
  sendOnly: false,
};
const argv = process.argv.slice(2);
for (let i = 0; i < argv.length; i++) {
  const a = argv[i]!;
  const val = () => argv[++i] ?? '';
  if (a === '-m') opts.group = val();
  else if (a === '-s') opts.sender = true;
  else if (a === '-b') opts.bind = val();
  else if (a === '-c') opts.connections = Number(val());
  else if (a === '-C') opts.count = Number(val());
  else if (a === '-S') opts.size = Number(val());
  else if (a === '-p') opts.ps = Number(val());
  else if (a === '-o')
    opts.sendOnly = true; // join as a send-only full member (rdma_join_multicast_ex)
  else if (a === '-l')
    continue; // no loopback: a member never receives its own datagrams here
  else {
    opts.group = null;
    break;
  }
}
if (!opts.group) {
  console.log(
    'usage: mckey -m multicast_address [-s(ender)] [-b bind_address] [-c connections] [-C message_count] [-S message_size] [-p port_space - 0x111 for UDP (default)]',
  );
  process.exit(1);
}
if (opts.ps !== RDMA_PS_UDP) {
  console.log('mckey: only the UDP port space (0x111) is supported (softrdma has no IPoIB)');
  process.exit(1);
}
if (!opts.size) opts.count = 0;

const channel = v.rdma_create_event_channel()!;
const nodes: Node[] = [];
let connectsLeft = opts.connections;
// An IPv4 group (224.0.0.0/4) or an IPv6 one (ff00::/8), as rdma-core's mckey takes either.
const familyOf = (a: string): 'ipv4' | 'ipv6' => (isIP(a) === 6 ? 'ipv6' : 'ipv4');
const dst: sockaddr = { family: familyOf(opts.group), address: opts.group, port: 0 };

function initNode(n: Node): void {
  const ctx = n.id.verbs!;
  const port = { active_mtu: 0 } as { active_mtu: number };
  v.ibv_query_port(ctx, n.id.port_num, port as never);
  if (opts.count && opts.size > 1 << (port.active_mtu + 7))
    throw new Error(`mckey: message_size ${opts.size} is larger than active mtu ${1 << (port.active_mtu + 7)}`);
  n.pd = v.ibv_alloc_pd(ctx);
  if (!n.pd) throw new Error('mckey: unable to allocate PD');
  const cqe = opts.count ? opts.count * 2 : 2;
  n.cq = v.ibv_create_cq(ctx, cqe, n, null, 0);
  if (!n.cq) throw new Error('mckey: unable to create CQ');
  const attr: Partial<ibv_qp_init_attr> = {
    qp_type: IBV_QPT_UD,
    send_cq: n.cq,
    recv_cq: n.cq,
    cap: { max_send_wr: opts.count || 1, max_recv_wr: opts.count || 1, max_send_sge: 1, max_recv_sge: 1, max_inline_data: 0 },
  };
  if (v.rdma_create_qp(n.id, n.pd, attr) !== 0) throw new Error('mckey: unable to create QP');
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

async function postSends(n: Node): Promise<void> {
  if (!n.connected || !opts.count) return;
  for (let i = 0; i < opts.count; i++) {
    const last = i === opts.count - 1;
    const r = v.ibv_post_send(n.id.qp!, {
      wr_id: 0n,
      opcode: IBV_WR_SEND_WITH_IMM,
      send_flags: last ? IBV_SEND_SIGNALED : 0,
      imm_data: n.id.qp!.qp_num,
      sg_list: [{ addr: n.mr!.addr, length: opts.size, lkey: n.mr!.lkey }],
      wr: { ud: { ah: n.ah!, remote_qpn: n.remoteQpn, remote_qkey: n.remoteQkey } },
    });
    if (r.ret !== 0) throw new Error(`failed to post sends: ${r.ret}`);
  }
  await pollOne(n, 1);
}

async function pollOne(n: Node, count: number): Promise<void> {
  for (let done = 0; done < count; ) {
    const wcs: ibv_wc[] = Array.from({ length: 8 }, () => newWc());
    const got = v.ibv_poll_cq(n.cq!, 8, wcs);
    if (got < 0) throw new Error(`mckey: failed polling CQ: ${got}`);
    if (got === 0) {
      await new Promise((r) => setImmediate(r));
      continue;
    }
    for (const wc of wcs.slice(0, got)) if (wc.status !== IBV_WC_SUCCESS) throw new Error(`mckey: completion status ${wc.status}`);
    done += got;
  }
}

function gidText(raw: Uint8Array): string {
  if (raw.subarray(0, 10).every((x) => x === 0) && raw[10] === 0xff && raw[11] === 0xff)
    return `::ffff:${raw[12]}.${raw[13]}.${raw[14]}.${raw[15]}`;
  const w: string[] = [];
  for (let i = 0; i < 16; i += 2) w.push(((raw[i]! << 8) | raw[i + 1]!).toString(16));
  // As inet_ntop writes it (RFC 5952 §4.2): the longest run of two or more zero words becomes "::".
  let at = -1;
  let len = 0;
  for (let i = 0; i < 8; ) {
    let j = i;
    while (j < 8 && w[j] === '0') j++;
    if (j - i > len && j - i >= 2) [at, len] = [i, j - i];
    i = j > i ? j : i + 1;
  }
  if (at < 0) return w.join(':');
  return `${w.slice(0, at).join(':')}::${w.slice(at + len).join(':')}`;
}

async function cmaHandler(ev: rdma_cm_event): Promise<void> {
  const n = ev.id.context as Node;
  switch (ev.event) {
    case E.RDMA_CM_EVENT_ADDR_RESOLVED:
      initNode(n);
      if (!opts.sender) postRecvs(n);
      if (opts.sendOnly) {
        const attr = {
          comp_mask: RDMA_CM_JOIN_MC_ATTR_ADDRESS | RDMA_CM_JOIN_MC_ATTR_JOIN_FLAGS,
          join_flags: RDMA_MC_JOIN_FLAG_SENDONLY_FULLMEMBER,
          addr: dst,
        };
        if ((await v.rdma_join_multicast_ex(ev.id, attr, n)) !== 0) throw new Error('mckey: failure joining');
      } else if ((await v.rdma_join_multicast(ev.id, dst, n)) !== 0) throw new Error('mckey: failure joining');
      return;
    case E.RDMA_CM_EVENT_MULTICAST_JOIN: {
      const ud = ev.param.ud;
      console.log(`mckey: joined dgid: ${gidText(ud.ah_attr.grh.dgid.raw)} mlid 0x${ud.ah_attr.dlid.toString(16)} sl ${ud.ah_attr.sl}`);
      n.remoteQpn = ud.qp_num;
      n.remoteQkey = ud.qkey;
      n.ah = v.ibv_create_ah(n.pd!, ud.ah_attr);
      if (!n.ah) throw new Error('mckey: failure creating address handle');
      n.connected = true;
      connectsLeft--;
      return;
    }
    case E.RDMA_CM_EVENT_ADDR_ERROR:
    case E.RDMA_CM_EVENT_ROUTE_ERROR:
    case E.RDMA_CM_EVENT_MULTICAST_ERROR:
      console.log(`mckey: event: ${rdma_event_str(ev.event)}, error: ${ev.status}`);
      connectsLeft--;
      process.exitCode = 1;
      return;
    default:
      return;
  }
}

let status = 0;
try {
  console.log(`mckey: starting ${opts.sender ? 'client' : 'server'}`);
  const src: sockaddr | null = opts.bind ? { family: familyOf(opts.bind), address: opts.bind, port: 0 } : null;
  console.log('mckey: joining');
  for (let i = 0; i < opts.connections; i++) {
    const { id } = v.rdma_create_id(channel, null, RDMA_PS_UDP);
    const n: Node = {
      id: id!,
      pd: null,
      cq: null,
      mr: null,
      mem: new Uint8Array(0),
      ah: null,
      remoteQpn: 0,
      remoteQkey: 0,
      connected: false,
    };
    id!.context = n;
    nodes.push(n);
    if (src && v.rdma_bind_addr(id!, src) !== 0) throw new Error('mckey: addr bind failure');
    if ((await v.rdma_resolve_addr(id!, src, dst, 2000)) !== 0) throw new Error('mckey: resolve addr failure');
  }
  while (connectsLeft > 0) {
    const r = await v.rdma_get_cm_event(channel);
    if (r.ret !== 0 || !r.event) throw new Error('rdma_get_cm_event');
    try {
      await cmaHandler(r.event);
    } finally {
      v.rdma_ack_cm_event(r.event);
    }
  }
  // mckey's pause for the fabric (here: the other members' IGMP joins) before sending.
  await new Promise((r) => setTimeout(r, 3000));
  if (opts.count && nodes.some((n) => n.connected)) {
    if (opts.sender) {
      console.log('initiating data transfers');
      for (const n of nodes) await postSends(n);
    } else {
      console.log('receiving data transfers');
      for (const n of nodes) if (n.connected) await pollOne(n, opts.count);
    }
    console.log('data transfers complete');
  }
} catch (e) {
  console.log((e as Error).message);
  status = 1;
}
for (const n of nodes) {
  if (v.rdma_leave_multicast(n.id, dst) !== 0) console.log('mckey: failure leaving');
}
console.log('test complete');
for (const n of nodes) {
  if (n.ah) v.ibv_destroy_ah(n.ah);
  if (n.id.qp) v.rdma_destroy_qp(n.id);
  if (n.cq) v.ibv_destroy_cq(n.cq);
  if (n.mr) v.ibv_dereg_mr(n.mr);
  if (n.pd) v.ibv_dealloc_pd(n.pd);
  v.rdma_destroy_id(n.id);
}
v.rdma_destroy_event_channel(channel);
if (status) process.exitCode = 1;
console.log(`return status ${process.exitCode ?? 0}`);
