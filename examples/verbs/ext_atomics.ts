/**
 * The manual's extended atomics (§8.7 "Verbs API for Extended Atomics Support") as a program,
 * following its usage model step by step — the section has no listing of its own:
 *
 * 1. query the device: are atomics supported, in which reply endianness, are extended atomics
 *    supported and at which sizes (`ibv_exp_query_device`: `exp_atomic_cap`,
 *    `IBV_EXP_DEVICE_EXT_ATOMICS`, `ext_atom`);
 * 2. initialize a QP for atomics, taking the capabilities into account (on iWARP the QP is
 *    connected by rdma_cm, so it is made with `rdma_create_ep`; `max_atomic_arg` is softrdma's
 *    fixed 32 octets);
 * 3. use the operations: a multi-field masked Fetch&Add (four 16-bit counters in 8 octets, the
 *    mask's 1 bits ending each field, as the section's figure), a 16-octet masked Compare&Swap
 *    and a 32-octet Fetch&Add (`ibv_exp_post_send`, `IBV_EXP_WR_EXT_MASKED_ATOMIC_*`);
 * 4. destroy the QP.
 *
 *   node dist/examples/verbs/ext_atomics.js                      both sides on loopback (two processes)
 *   node dist/examples/verbs/ext_atomics.js -s -a <addr> [-p P]  the server (owns the target memory)
 *   node dist/examples/verbs/ext_atomics.js -a <addr> [-p P]     the client (posts the atomics)
 *
 * The server registers 64 octets with Remote Atomic access and sends their address and rkey; the
 * client runs the operations and prints the original values it got back; the server prints the
 * memory afterwards. Values are host-order 64-bit words (the reply "in units of the host's natural
 * word size", §8.7.2.2); wider operands are bigints with word 0 in their low 64 bits.
 */
import {
  getErrno,
  IBV_ACCESS_LOCAL_WRITE,
  IBV_ACCESS_REMOTE_ATOMIC,
  IBV_ACCESS_REMOTE_READ,
  IBV_EXP_DEVICE_ATTR_EXT_ATOMIC_ARGS,
  IBV_EXP_DEVICE_EXT_ATOMICS,
  IBV_EXP_SEND_EXT_ATOMIC_INLINE,
  IBV_EXP_SEND_SIGNALED,
  IBV_EXP_WR_EXT_MASKED_ATOMIC_CMP_AND_SWP,
  IBV_EXP_WR_EXT_MASKED_ATOMIC_FETCH_AND_ADD,
  IBV_QPT_RC,
  IBV_SEND_SIGNALED,
  IBV_WC_SUCCESS,
  type ibv_exp_device_attr,
  type ibv_exp_send_wr,
  type ibv_mr,
  type ibv_qp_init_attr,
  type ibv_wc,
  ibv_wc_status_str,
  type In,
  newWc,
  RAI_PASSIVE,
  RDMA_PS_TCP,
  type rdma_cm_id,
  rdmaListenReady,
  verbs,
} from '../../src/verbs/index.js';
import { err, freePort, getopt, out, runBoth } from './common.js';

const DEFAULT_PORT = '51218';
const M64 = (1n << 64n) - 1n;
const QP_ATTR: In<ibv_qp_init_attr> = {
  qp_type: IBV_QPT_RC,
  cap: { max_send_wr: 8, max_recv_wr: 2, max_send_sge: 1, max_recv_sge: 1, max_inline_data: 0 },
  sq_sig_all: 0,
};

const hex64 = (v: bigint) => `0x${(v & M64).toString(16).padStart(16, '0')}`;
const words = (b: Uint8Array, off: number, n: number) =>
  Array.from({ length: n }, (_, i) => new DataView(b.buffer, b.byteOffset + off + 8 * i, 8).getBigUint64(0, true));

async function pollOne(id: rdma_cm_id, what: string): Promise<ibv_wc | null> {
  const wc = newWc();
  const n = await verbs.rdma_get_send_comp(id, wc);
  if (n !== 1) {
    err(`${what}: rdma_get_send_comp returned ${n} errno ${getErrno()}`);
    return null;
  }
  if (wc.status !== IBV_WC_SUCCESS) {
    err(`${what}: completion ${ibv_wc_status_str(wc.status)}`);
    return null;
  }
  return wc;
}

/** Step 1: what the device offers (§8.7.2.1). */
function queryDevice(id: rdma_cm_id): boolean {
  const attr = {} as ibv_exp_device_attr;
  const ret = verbs.ibv_exp_query_device(id.verbs!, attr);
  if (ret) {
    err(`ibv_exp_query_device returned ${ret}`);
    return false;
  }
  const ext =
    (attr.exp_device_cap_flags & IBV_EXP_DEVICE_EXT_ATOMICS) !== 0n && (attr.comp_mask & IBV_EXP_DEVICE_ATTR_EXT_ATOMIC_ARGS) !== 0;
  const sizes = [8, 16, 32, 64].filter((s) => (attr.ext_atom.atomic_arg_sizes & BigInt(s)) !== 0n);
  out(
    `exp_atomic_cap ${attr.exp_atomic_cap}, extended atomics ${ext ? 'supported' : 'not supported'}, sizes ${sizes.join('/')} bytes, max_fa_bit_boundary ${attr.ext_atom.max_fa_bit_boundary}, log_max_atomic_inline ${attr.ext_atom.log_max_atomic_inline}`,
  );
  return ext && sizes.includes(32);
}

async function runServer(addr: string, port: string): Promise<number> {
  const info = (await verbs.rdma_getaddrinfo(addr, port, { ai_port_space: RDMA_PS_TCP, ai_flags: RAI_PASSIVE })).res!;
  const listen = (await verbs.rdma_create_ep(info, null, QP_ATTR)).id!;
  if (verbs.rdma_listen(listen, 1)) return 1;
  await rdmaListenReady(listen);
  out('waiting for connection from client...');
  const r = await verbs.rdma_get_request(listen);
  if (r.ret) return 1;
  const id = r.id!;
  // The target: 64 octets, Remote Atomic access (and Local Write, which atomics need).
  const target = new Uint8Array(64);
  const tdv = new DataView(target.buffer);
  tdv.setBigUint64(0, 0xffff_0003_fffe_0001n, true);
  tdv.setBigUint64(16, 0x1111n, true);
  tdv.setBigUint64(24, 0x2222n, true);
  for (let i = 0; i < 4; i++) tdv.setBigUint64(32 + 8 * i, M64 - BigInt(i), true);
  const tmr = verbs.ibv_reg_mr(id.pd!, target, target.length, IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_READ | IBV_ACCESS_REMOTE_ATOMIC)!;
  const msg = new Uint8Array(12);
  const mmr = verbs.rdma_reg_msgs(id, msg, msg.length)!;
  const done = new Uint8Array(4);
  const dmr = verbs.rdma_reg_msgs(id, done, done.length)!;
  verbs.rdma_post_recv(id, null, done, done.length, dmr);
  // NULL conn_param: the request's IRD/ORD capped to the device's limits (librdmacm).
  if ((await verbs.rdma_accept(id, null)) !== 0) {
    verbs.rdma_reject(id, null);
    return 1;
  }
  // Tell the client where the target is: address and rkey (big-endian, like a C struct on the wire).
  const mdv = new DataView(msg.buffer);
  mdv.setBigUint64(0, tmr.addr);
  mdv.setUint32(8, tmr.rkey);
  verbs.rdma_post_send(id, null, msg, msg.length, mmr, IBV_SEND_SIGNALED);
  if (!(await pollOne(id, 'send'))) return 1;
  if ((await verbs.rdma_get_recv_comp(id, newWc())) !== 1) return 1;
  out(
    `target after: ${words(target, 0, 1).map(hex64).join(' ')} | ${words(target, 16, 2).map(hex64).join(' ')} | ${words(target, 32, 4).map(hex64).join(' ')}`,
  );
  await verbs.rdma_disconnect(id);
  for (const m of [tmr, mmr, dmr] as ibv_mr[]) verbs.rdma_dereg_mr(m);
  verbs.rdma_destroy_ep(id);
  verbs.rdma_destroy_ep(listen);
  verbs.rdma_freeaddrinfo(info);
  return 0;
}

async function runClient(addr: string, port: string): Promise<number> {
  const info = (await verbs.rdma_getaddrinfo(addr, port, { ai_port_space: RDMA_PS_TCP })).res!;
  // Step 2: the QP (rdma_create_ep resolves the device, so the query runs on it first).
  const id = (await verbs.rdma_create_ep(info, null, QP_ATTR)).id!;
  if (!queryDevice(id)) {
    out('extended atomics of 32 bytes are not available');
    return 1;
  }
  const msg = new Uint8Array(12);
  const mmr = verbs.rdma_reg_msgs(id, msg, msg.length)!;
  verbs.rdma_post_recv(id, null, msg, msg.length, mmr);
  if ((await verbs.rdma_connect(id, { responder_resources: 4, initiator_depth: 4 })) !== 0) {
    err(`rdma_connect errno ${getErrno()}`);
    return 1;
  }
  if ((await verbs.rdma_get_recv_comp(id, newWc())) !== 1) return 1;
  const mdv = new DataView(msg.buffer);
  const raddr = mdv.getBigUint64(0);
  const rkey = mdv.getUint32(8);
  const res = new Uint8Array(32);
  const rmr = verbs.ibv_reg_mr(id.pd!, res, res.length, IBV_ACCESS_LOCAL_WRITE)!;
  const post = async (name: string, wr: In<ibv_exp_send_wr>, n: number): Promise<boolean> => {
    const r = verbs.ibv_exp_post_send(id.qp!, wr);
    if (r.ret) {
      err(`ibv_exp_post_send (${name}) returned ${r.ret}`);
      return false;
    }
    if (!(await pollOne(id, name))) return false;
    out(`${name}: original ${words(res, 0, n).map(hex64).join(' ')}`);
    return true;
  };
  const sg = (len: number) => [{ addr: rmr.addr, length: len, lkey: rmr.lkey }];
  const flags = IBV_EXP_SEND_SIGNALED | IBV_EXP_SEND_EXT_ATOMIC_INLINE;
  // Step 3a: four 16-bit counters in one 8-byte operand; the mask's 1 bits end fields 0-2 (the
  // top bit is always an implicit end). Each counter wraps on its own: no carry into the next.
  const ok1 = await post(
    'masked fetch&add 8 bytes, 16-bit fields',
    {
      wr_id: 1n,
      exp_opcode: IBV_EXP_WR_EXT_MASKED_ATOMIC_FETCH_AND_ADD,
      exp_send_flags: flags,
      sg_list: sg(8),
      ext_op: {
        masked_atomics: {
          log_arg_sz: 3,
          remote_addr: raddr,
          rkey,
          wr_data: {
            inline_data: {
              op: { fetch_add: { add_val: 0x0001_0001_0002_0001n, field_boundary: (1n << 15n) | (1n << 31n) | (1n << 47n) } },
            },
          },
        },
      },
    },
    1,
  );
  // Step 3b: 16 bytes: compare only the low word (0x1111), swap only the high word.
  const ok2 = await post(
    'masked compare&swap 16 bytes',
    {
      wr_id: 2n,
      exp_opcode: IBV_EXP_WR_EXT_MASKED_ATOMIC_CMP_AND_SWP,
      exp_send_flags: flags,
      sg_list: sg(16),
      ext_op: {
        masked_atomics: {
          log_arg_sz: 4,
          remote_addr: raddr + 16n,
          rkey,
          wr_data: {
            inline_data: { op: { cmp_swap: { compare_val: 0x1111n, compare_mask: M64, swap_val: 0xabcdn << 64n, swap_mask: M64 << 64n } } },
          },
        },
      },
    },
    2,
  );
  // Step 3c: 32 bytes, four 64-bit fields: each word + (its index + 1), wrapping on its own.
  const add = (4n << 192n) | (3n << 128n) | (2n << 64n) | 1n;
  const ok3 = await post(
    'fetch&add 32 bytes, 64-bit fields',
    {
      wr_id: 3n,
      exp_opcode: IBV_EXP_WR_EXT_MASKED_ATOMIC_FETCH_AND_ADD,
      exp_send_flags: flags,
      sg_list: sg(32),
      ext_op: {
        masked_atomics: {
          log_arg_sz: 5,
          remote_addr: raddr + 32n,
          rkey,
          wr_data: { inline_data: { op: { fetch_add: { add_val: add, field_boundary: 0n } } } },
        },
      },
    },
    4,
  );
  // Tell the server we are done, then step 4.
  verbs.rdma_post_send(id, null, msg, 4, mmr, IBV_SEND_SIGNALED);
  await pollOne(id, 'done');
  await verbs.rdma_disconnect(id);
  verbs.rdma_dereg_mr(rmr);
  verbs.rdma_dereg_mr(mmr);
  verbs.rdma_destroy_ep(id);
  verbs.rdma_freeaddrinfo(info);
  return ok1 && ok2 && ok3 ? 0 : 1;
}

async function main(argv: string[]): Promise<number> {
  const { opts, rest, bad } = getopt(argv, 'ap', 's');
  if (bad || rest.length > 0) {
    out('usage: ext_atomics [-s] [-a address] [-p port]   (without -s and -a: both sides on loopback)');
    return 1;
  }
  if (!opts.has('a') && !opts.has('s')) {
    const port = opts.get('p') ?? String(await freePort());
    return runBoth(process.argv[1]!, ['-s', '-a', '127.0.0.1', '-p', port], ['-a', '127.0.0.1', '-p', port], /^waiting for connection/);
  }
  const addr = opts.get('a');
  if (!addr) {
    out('server address required (use -a)!');
    return 1;
  }
  const port = opts.get('p') ?? DEFAULT_PORT;
  return opts.has('s') ? runServer(addr, port) : runClient(addr, port);
}

main(process.argv.slice(2)).then(
  (rc) => {
    process.exitCode = rc === 0 ? 0 : 1;
  },
  (e: unknown) => {
    err(String((e as Error)?.stack ?? e));
    process.exitCode = 1;
  },
);
