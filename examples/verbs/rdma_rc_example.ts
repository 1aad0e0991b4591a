/**
 * The manual's "RDMA_RC_example" (§8.1–8.2) in TypeScript: Send, Receive, RDMA Read and RDMA Write
 * between two RC QPs, set up through the VPI verbs with a TCP side channel.
 *
 *   node dist/examples/verbs/rdma_rc_example.js              both sides on loopback (two processes)
 *   node dist/examples/verbs/rdma_rc_example.js -s [opts]    the server (the C program without a host)
 *   node dist/examples/verbs/rdma_rc_example.js [opts] host  the client
 *   options: -p/--port <tcp port> (19875)  -d/--ib-dev <dev>  -i/--ib-port <port> (1)  -g/--gid-idx <idx> (-1)
 *
 * The program follows the C one step by step and prints what it prints. Where it cannot or should
 * not (see README.md):
 * - iWARP has no way to RTS by `ibv_modify_qp` alone: a QP needs an LLP (TCP) connection with
 *   the MPA start-up on it. So `connect_qp`, after exchanging the same 34-byte `cm_con_data_t`
 *   record over the TCP socket and moving the QP to INIT and RTR exactly as the C code does, hands
 *   that socket to the connection manager (`cmConvertSocket`, as `it_socket_convert` does for
 *   IT-API), which runs the MPA start-up on it and brings the QP to RTS; the C program's RTR→RTS
 *   `ibv_modify_qp` then completes the transition with the manual's attributes.
 * - Once converted, the socket carries RDMA traffic, so the C program's later one-byte syncs
 *   ("Q", "R", "W") use a second TCP connection opened next to the first.
 * - The buffer holds the longest message plus its NUL (21 bytes), not `strlen(MSG)+1` (16), which
 *   the C code overflows with `strcpy`; every operation moves the whole buffer.
 * - `sock_sync_data` reads until the whole record is in (the C loop re-reads into the start).
 */
import { cmConvertSocket, riCmQp } from '../../src/iwarp/cm.js';
import type { Qp } from '../../src/verbs/ibverbs.js';
import {
  getErrno,
  IBV_ACCESS_LOCAL_WRITE,
  IBV_ACCESS_REMOTE_READ,
  IBV_ACCESS_REMOTE_WRITE,
  IBV_MTU_256,
  IBV_QP_ACCESS_FLAGS,
  IBV_QP_AV,
  IBV_QP_DEST_QPN,
  IBV_QP_MAX_DEST_RD_ATOMIC,
  IBV_QP_MAX_QP_RD_ATOMIC,
  IBV_QP_MIN_RNR_TIMER,
  IBV_QP_PATH_MTU,
  IBV_QP_PKEY_INDEX,
  IBV_QP_PORT,
  IBV_QP_RETRY_CNT,
  IBV_QP_RNR_RETRY,
  IBV_QP_RQ_PSN,
  IBV_QP_SQ_PSN,
  IBV_QP_STATE,
  IBV_QP_TIMEOUT,
  IBV_QPS_INIT,
  IBV_QPS_RTR,
  IBV_QPS_RTS,
  IBV_QPT_RC,
  IBV_SEND_SIGNALED,
  IBV_WC_SUCCESS,
  IBV_WR_RDMA_READ,
  IBV_WR_RDMA_WRITE,
  IBV_WR_SEND,
  ibv_transport_type,
  type ibv_context,
  type ibv_cq,
  type ibv_gid,
  type ibv_mr,
  type ibv_pd,
  type ibv_port_attr,
  type ibv_qp,
  type ibv_qp_attr,
  type ibv_wc,
  type In,
  newWc,
  verbs,
} from '../../src/verbs/index.js';
import { type CmConData, packConData, unpackConData } from './cm_con_data.js';
import { acceptN, connectTo, cstr, err, freePort, getopt, hex, out, runBoth, SockReader, strcpy } from './common.js';

/** Poll CQ timeout in milliseconds (2 seconds). */
const MAX_POLL_CQ_TIMEOUT = 2000;
const MSG = 'SEND operation ';
const RDMAMSGR = 'RDMA read operation ';
const RDMAMSGW = 'RDMA write operation';
/** The longest message and its NUL (the C program's 16 is too small for its own strcpy's). */
const MSG_SIZE = Math.max(MSG.length, RDMAMSGR.length, RDMAMSGW.length) + 1;
interface Config {
  dev_name: string | null;
  server_name: string | null;
  tcp_port: number;
  ib_port: number;
  gid_idx: number;
}

const config: Config = { dev_name: null, server_name: null, tcp_port: 19875, ib_port: 1, gid_idx: -1 };

interface Resources {
  port_attr: ibv_port_attr;
  remote_props: CmConData;
  ib_ctx: ibv_context | null;
  pd: ibv_pd | null;
  cq: ibv_cq | null;
  qp: ibv_qp | null;
  mr: ibv_mr | null;
  buf: Uint8Array | null;
  /** The TCP connection that carries the record, then (converted) the QP's traffic. */
  sock: SockReader | null;
  /** The second TCP connection, for the one-byte syncs after the conversion. */
  sync: SockReader | null;
}

function resources_init(): Resources {
  return {
    port_attr: {} as ibv_port_attr,
    remote_props: { addr: 0n, rkey: 0, qp_num: 0, lid: 0, gid: new Uint8Array(16) },
    ib_ctx: null,
    pd: null,
    cq: null,
    qp: null,
    mr: null,
    buf: null,
    sock: null,
    sync: null,
  };
}

/**
 * Connects (client) or accepts (server) the two TCP connections: the first carries the
 * `cm_con_data_t` exchange and then becomes the QP's LLP connection, the second the syncs.
 */
async function sock_connect(servername: string | null, port: number): Promise<{ sock: SockReader; sync: SockReader } | null> {
  try {
    if (servername) {
      const a = await connectTo(servername, port);
      const b = await connectTo(servername, port);
      return { sock: new SockReader(a), sync: new SockReader(b) };
    }
    const [a, b] = await acceptN(port, 2);
    return { sock: new SockReader(a!), sync: new SockReader(b!) };
  } catch (e) {
    if (servername) err(`Couldn't connect to ${servername}:${port}`);
    else {
      err(`server accept: ${(e as Error).message}`);
      err('accept() failed');
    }
    return null;
  }
}

/** Writes `local`, then reads the peer's data of the same size (all of it). */
async function sock_sync_data(sock: SockReader, local: Uint8Array): Promise<Buffer | null> {
  try {
    await sock.write(local);
    return await sock.read(local.length);
  } catch {
    err('Failed writing data during sock_sync_data');
    return null;
  }
}

async function poll_completion(res: Resources): Promise<number> {
  const wc: ibv_wc[] = [newWc()];
  const start = Date.now();
  let poll_result: number;
  do {
    poll_result = verbs.ibv_poll_cq(res.cq!, 1, wc);
    if (poll_result !== 0) break;
    // The C program spins; here the event loop must run for the data path to progress.
    await new Promise<void>((r) => setImmediate(r));
  } while (Date.now() - start < MAX_POLL_CQ_TIMEOUT);
  if (poll_result < 0) {
    err('poll CQ failed');
    return 1;
  }
  if (poll_result === 0) {
    err("completion wasn't found in the CQ after timeout");
    return 1;
  }
  const w = wc[0]!;
  out(`completion was found in CQ with status 0x${hex(w.status)}`);
  if (w.status !== IBV_WC_SUCCESS) {
    err(`got bad completion with status: 0x${hex(w.status)}, vendor syndrome: 0x${hex(w.vendor_err)}`);
    return 1;
  }
  return 0;
}

function post_send(res: Resources, opcode: number): number {
  const sr = {
    wr_id: 0n,
    sg_list: [{ addr: res.mr!.addr, length: MSG_SIZE, lkey: res.mr!.lkey }],
    num_sge: 1,
    opcode,
    send_flags: IBV_SEND_SIGNALED,
    wr: opcode !== IBV_WR_SEND ? { rdma: { remote_addr: res.remote_props.addr, rkey: res.remote_props.rkey } } : undefined,
  };
  const rc = verbs.ibv_post_send(res.qp!, sr).ret;
  if (rc) err('failed to post SR');
  else if (opcode === IBV_WR_SEND) out('Send Request was posted');
  else if (opcode === IBV_WR_RDMA_READ) out('RDMA Read Request was posted');
  else if (opcode === IBV_WR_RDMA_WRITE) out('RDMA Write Request was posted');
  else out('Unknown Request was posted');
  return rc;
}

function post_receive(res: Resources): number {
  const rr = { wr_id: 0n, sg_list: [{ addr: res.mr!.addr, length: MSG_SIZE, lkey: res.mr!.lkey }], num_sge: 1 };
  const rc = verbs.ibv_post_recv(res.qp!, rr).ret;
  if (rc) err('failed to post RR');
  else out('Receive Request was posted');
  return rc;
}

/** Creates everything; on failure unwinds what was made (as the C code does) and returns 1. */
async function resources_create(res: Resources): Promise<number> {
  let rc = 0;
  let dev_list: ReturnType<typeof verbs.ibv_get_device_list> = null;
  // The C code's `goto resources_create_exit`: the first failure returns its rc.
  rc = await (async (): Promise<number> => {
    if (config.server_name) {
      const s = await sock_connect(config.server_name, config.tcp_port);
      if (!s) {
        err(`failed to establish TCP connection to server ${config.server_name}, port ${config.tcp_port}`);
        return -1;
      }
      Object.assign(res, s);
    } else {
      out(`waiting on port ${config.tcp_port} for TCP connection`);
      const s = await sock_connect(null, config.tcp_port);
      if (!s) {
        err(`failed to establish TCP connection with client on port ${config.tcp_port}`);
        return -1;
      }
      Object.assign(res, s);
    }
    out('TCP connection was established');
    out('searching for IB devices in host');
    dev_list = verbs.ibv_get_device_list();
    if (!dev_list) {
      err('failed to get IB devices list');
      return 1;
    }
    const num_devices = dev_list.length;
    if (!num_devices) {
      err(`found ${num_devices} device(s)`);
      return 1;
    }
    out(`found ${num_devices} device(s)`);
    let ib_dev = null;
    for (const d of dev_list) {
      if (!config.dev_name) {
        config.dev_name = verbs.ibv_get_device_name(d);
        out(`device not specified, using first one found: ${config.dev_name}`);
      }
      if (verbs.ibv_get_device_name(d) === config.dev_name) {
        ib_dev = d;
        break;
      }
    }
    if (!ib_dev) {
      err(`IB device ${config.dev_name} wasn't found`);
      return 1;
    }
    res.ib_ctx = verbs.ibv_open_device(ib_dev);
    if (!res.ib_ctx) {
      err(`failed to open device ${config.dev_name}`);
      return 1;
    }
    verbs.ibv_free_device_list(dev_list);
    dev_list = null;
    if (verbs.ibv_query_port(res.ib_ctx, config.ib_port, res.port_attr)) {
      err(`ibv_query_port on port ${config.ib_port} failed`);
      return 1;
    }
    res.pd = verbs.ibv_alloc_pd(res.ib_ctx);
    if (!res.pd) {
      err('ibv_alloc_pd failed');
      return 1;
    }
    // Each side sends only one WR at a time, so a CQ of 1 entry is enough.
    const cq_size = 1;
    res.cq = verbs.ibv_create_cq(res.ib_ctx, cq_size, null, null, 0);
    if (!res.cq) {
      err(`failed to create CQ with ${cq_size} entries`);
      return 1;
    }
    res.buf = new Uint8Array(MSG_SIZE);
    if (!config.server_name) {
      strcpy(res.buf, MSG);
      out(`going to send the message: '${cstr(res.buf)}'`);
    }
    const mr_flags = IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_READ | IBV_ACCESS_REMOTE_WRITE;
    res.mr = verbs.ibv_reg_mr(res.pd, res.buf, MSG_SIZE, mr_flags);
    if (!res.mr) {
      err(`ibv_reg_mr failed with mr_flags=0x${hex(mr_flags)}`);
      return 1;
    }
    out(
      `MR was registered with addr=0x${hex(res.mr.addr)}, lkey=0x${hex(res.mr.lkey)}, rkey=0x${hex(res.mr.rkey)}, flags=0x${hex(mr_flags)}`,
    );
    res.qp = verbs.ibv_create_qp(res.pd, {
      qp_type: IBV_QPT_RC,
      sq_sig_all: 1,
      send_cq: res.cq,
      recv_cq: res.cq,
      cap: { max_send_wr: 1, max_recv_wr: 1, max_send_sge: 1, max_recv_sge: 1 },
    });
    if (!res.qp) {
      err('failed to create QP');
      return 1;
    }
    out(`QP was created, QP number=0x${hex(res.qp.qp_num)}`);
    return 0;
  })();
  if (rc) {
    if (res.qp) verbs.ibv_destroy_qp(res.qp);
    if (res.mr) verbs.ibv_dereg_mr(res.mr);
    if (res.cq) verbs.ibv_destroy_cq(res.cq);
    if (res.pd) verbs.ibv_dealloc_pd(res.pd);
    if (res.ib_ctx) verbs.ibv_close_device(res.ib_ctx);
    if (dev_list) verbs.ibv_free_device_list(dev_list);
    res.sock?.socket.destroy();
    res.sync?.socket.destroy();
    Object.assign(res, { qp: null, mr: null, buf: null, cq: null, pd: null, ib_ctx: null, sock: null, sync: null });
  }
  return rc;
}

function modify_qp_to_init(qp: ibv_qp): number {
  const attr: In<ibv_qp_attr> = {
    qp_state: IBV_QPS_INIT,
    port_num: config.ib_port,
    pkey_index: 0,
    qp_access_flags: IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_READ | IBV_ACCESS_REMOTE_WRITE,
  };
  const flags = IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT | IBV_QP_ACCESS_FLAGS;
  const rc = verbs.ibv_modify_qp(qp, attr, flags);
  if (rc) err('failed to modify QP state to INIT');
  return rc;
}

function modify_qp_to_rtr(qp: ibv_qp, remote_qpn: number, dlid: number, dgid: Uint8Array): number {
  const attr: In<ibv_qp_attr> = {
    qp_state: IBV_QPS_RTR,
    path_mtu: IBV_MTU_256,
    dest_qp_num: remote_qpn,
    rq_psn: 0,
    max_dest_rd_atomic: 1,
    min_rnr_timer: 0x12,
    ah_attr: { is_global: 0, dlid, sl: 0, src_path_bits: 0, port_num: config.ib_port },
  };
  if (config.gid_idx >= 0) {
    attr.ah_attr = {
      ...attr.ah_attr,
      is_global: 1,
      port_num: 1,
      grh: { dgid: { raw: dgid }, flow_label: 0, hop_limit: 1, sgid_index: config.gid_idx, traffic_class: 0 },
    };
  }
  const flags =
    IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN | IBV_QP_RQ_PSN | IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER;
  const rc = verbs.ibv_modify_qp(qp, attr, flags);
  if (rc) err('failed to modify QP state to RTR');
  return rc;
}

/**
 * iWARP's part of RTR→RTS: the LLP connection. The TCP socket that carried the record is handed to
 * the connection manager, which runs the MPA start-up on it (the client as MPA Initiator, the
 * server as Responder) and moves the RNIC QP to RTS with the IRD/ORD of the C program (1/1).
 */
/** iWARP: the record's socket was handed to the CM (it goes with the QP); else it is ours to close. */
let recordSocketConverted = false;

async function connect_llp(res: Resources): Promise<number> {
  const qp = res.qp as Qp;
  if (!res.sock) return 1;
  // InfiniBand/RoCE (softroce0): the QP needs no LLP; RTR→RTS by ibv_modify_qp alone is the C
  // program's way, with the peer's QPN and GID from the record. The record's socket stays open
  // unused until the end (the syncs keep their own connection, as on iWARP).
  if (qp.context.device.transport_type === ibv_transport_type.IBV_TRANSPORT_IB) return 0;
  const eqp = riCmQp(qp.context.ops, qp.context.rnic, qp.ri);
  const pending = res.sock.detach();
  recordSocketConverted = true;
  try {
    await cmConvertSocket(eqp, res.sock.socket, {
      // MPA lets the Responder send only after the Initiator's first FPDU; the C server sends
      // first, so the client offers RFC 6581 peer-to-peer mode (a zero-length RTR), as siw does.
      mpa: config.server_name ? { role: 'initiator', ird: 1, ord: 1, p2p: true } : { role: 'responder', ird: 1, ord: 1 },
      pending,
    });
  } catch (e) {
    err(`failed to convert the TCP connection: ${(e as Error).message}`);
    return 1;
  }
  return 0;
}

function modify_qp_to_rts(qp: ibv_qp): number {
  const attr: In<ibv_qp_attr> = { qp_state: IBV_QPS_RTS, timeout: 0x12, retry_cnt: 6, rnr_retry: 0, sq_psn: 0, max_rd_atomic: 1 };
  const flags = IBV_QP_STATE | IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY | IBV_QP_SQ_PSN | IBV_QP_MAX_QP_RD_ATOMIC;
  const rc = verbs.ibv_modify_qp(qp, attr, flags);
  if (rc) err('failed to modify QP state to RTS');
  return rc;
}

async function connect_qp(res: Resources): Promise<number> {
  const my_gid: ibv_gid = { raw: new Uint8Array(16) };
  if (config.gid_idx >= 0) {
    const rc = verbs.ibv_query_gid(res.ib_ctx!, config.ib_port, config.gid_idx, my_gid);
    if (rc) {
      err(`could not get gid for port ${config.ib_port}, index ${config.gid_idx}`);
      return rc;
    }
  }
  const local = packConData({ addr: res.mr!.addr, rkey: res.mr!.rkey, qp_num: res.qp!.qp_num, lid: res.port_attr.lid, gid: my_gid.raw });
  out('');
  out(`Local LID = 0x${hex(res.port_attr.lid)}`);
  const tmp = await sock_sync_data(res.sock!, local);
  if (!tmp) {
    err('failed to exchange connection data between sides');
    return 1;
  }
  const remote = unpackConData(tmp);
  res.remote_props = remote;
  out(`Remote address = 0x${hex(remote.addr)}`);
  out(`Remote rkey = 0x${hex(remote.rkey)}`);
  out(`Remote QP number = 0x${hex(remote.qp_num)}`);
  out(`Remote LID = 0x${hex(remote.lid)}`);
  if (config.gid_idx >= 0) out(`Remote GID =${[...remote.gid].map((b) => b.toString(16).padStart(2, '0')).join(':')}`);
  let rc = modify_qp_to_init(res.qp!);
  if (rc) {
    err('change QP state to INIT failed');
    return rc;
  }
  // Let the client post its receive before the server can send.
  if (config.server_name) {
    rc = post_receive(res);
    if (rc) {
      err('failed to post RR');
      return rc;
    }
  }
  rc = modify_qp_to_rtr(res.qp!, remote.qp_num, remote.lid, remote.gid);
  if (rc) {
    err('failed to modify QP state to RTR');
    return rc;
  }
  rc = await connect_llp(res);
  if (rc) {
    err('failed to connect the QP over TCP (MPA)');
    return rc;
  }
  rc = modify_qp_to_rts(res.qp!);
  if (rc) {
    err('failed to modify QP state to RTS');
    return rc;
  }
  out('QP state was change to RTS');
  if (!(await sock_sync_data(res.sync!, Buffer.from('Q')))) {
    err('sync error after QPs are were moved to RTS');
    return 1;
  }
  return 0;
}

function resources_destroy(res: Resources): number {
  let rc = 0;
  if (res.qp && verbs.ibv_destroy_qp(res.qp)) {
    err('failed to destroy QP');
    rc = 1;
  }
  if (res.mr && verbs.ibv_dereg_mr(res.mr)) {
    err('failed to deregister MR');
    rc = 1;
  }
  res.buf = null;
  if (res.cq && verbs.ibv_destroy_cq(res.cq)) {
    err('failed to destroy CQ');
    rc = 1;
  }
  if (res.pd && verbs.ibv_dealloc_pd(res.pd)) {
    err('failed to deallocate PD');
    rc = 1;
  }
  if (res.ib_ctx && verbs.ibv_close_device(res.ib_ctx)) {
    err('failed to close device context');
    rc = 1;
  }
  // A converted socket went with the QP (iWARP); an unconverted one (InfiniBand, or a failure
  // before the conversion) and the sync connection are closed here.
  if (!recordSocketConverted) res.sock?.socket.end();
  res.sync?.socket.end();
  return rc;
}

function print_config(): void {
  out(' ------------------------------------------------');
  out(` Device name : "${config.dev_name ?? '(null)'}"`);
  out(` IB port : ${config.ib_port}`);
  if (config.server_name) out(` IP : ${config.server_name}`);
  out(` TCP port : ${config.tcp_port}`);
  if (config.gid_idx >= 0) out(` GID index : ${config.gid_idx}`);
  out(' ------------------------------------------------\n');
}

function usage(argv0: string): void {
  out('Usage:');
  out(` ${argv0}            run the server and the client on loopback (softrdma)`);
  out(` ${argv0} -s         start a server and wait for connection`);
  out(` ${argv0} <host>     connect to server at <host>`);
  out('');
  out('Options:');
  out(' -p, --port <port> listen on/connect to port <port> (default 19875)');
  out(' -d, --ib-dev <dev> use IB device <dev> (default first device found)');
  out(' -i, --ib-port <port> use port <port> of IB device (default 1)');
  out(' -g, --gid-idx <gid index> gid index to be used in GRH (default not used)');
}

async function main(argv: string[]): Promise<number> {
  const argv0 = 'rdma_rc_example';
  const { opts, rest, bad } = getopt(argv, 'pdig', 'sh', {
    port: 'p',
    'ib-dev': 'd',
    'ib-port': 'i',
    'gid-idx': 'g',
    server: 's',
    help: 'h',
  });
  if (bad || opts.has('h') || rest.length > 1) {
    usage(argv0);
    return 1;
  }
  if (opts.has('p')) config.tcp_port = Number(opts.get('p'));
  if (opts.has('d')) config.dev_name = opts.get('d')!;
  if (opts.has('i')) config.ib_port = Number(opts.get('i'));
  if (opts.has('g')) config.gid_idx = Number(opts.get('g'));
  if (!Number.isInteger(config.tcp_port) || !Number.isInteger(config.ib_port) || config.ib_port < 0 || !Number.isInteger(config.gid_idx)) {
    usage(argv0);
    return 1;
  }
  if (rest.length === 1) config.server_name = rest[0]!;
  else if (!opts.has('s')) {
    // No role: run both sides on loopback, each in its own process like two C programs.
    const port = opts.has('p') ? config.tcp_port : await freePort();
    const pass: string[] = [];
    for (const o of ['d', 'i', 'g']) if (opts.has(o)) pass.push(`-${o}`, opts.get(o)!);
    return runBoth(process.argv[1]!, ['-s', '-p', String(port), ...pass], ['-p', String(port), ...pass, '127.0.0.1'], /^waiting on port/);
  }

  print_config();
  const res = resources_init();
  let rc = 1;
  // The C code's `goto main_exit`: the first failure leaves rc at 1.
  rc = await (async (): Promise<number> => {
    if (await resources_create(res)) {
      err('failed to create resources');
      return 1;
    }
    if (await connect_qp(res)) {
      err('failed to connect QPs');
      return 1;
    }
    if (!config.server_name && post_send(res, IBV_WR_SEND)) {
      err('failed to post sr');
      return 1;
    }
    if (await poll_completion(res)) {
      err('poll completion failed');
      return 1;
    }
    if (config.server_name) out(`Message is: '${cstr(res.buf!)}'`);
    else strcpy(res.buf!, RDMAMSGR);
    if (!(await sock_sync_data(res.sync!, Buffer.from('R')))) {
      err('sync error before RDMA ops');
      return 1;
    }
    // The client reads the server's buffer, then overwrites it; the server's CPU sees neither.
    if (config.server_name) {
      if (post_send(res, IBV_WR_RDMA_READ)) {
        err('failed to post SR 2');
        return 1;
      }
      if (await poll_completion(res)) {
        err('poll completion failed 2');
        return 1;
      }
      out(`Contents of server's buffer: '${cstr(res.buf!)}'`);
      strcpy(res.buf!, RDMAMSGW);
      out(`Now replacing it with: '${cstr(res.buf!)}'`);
      if (post_send(res, IBV_WR_RDMA_WRITE)) {
        err('failed to post SR 3');
        return 1;
      }
      if (await poll_completion(res)) {
        err('poll completion failed 3');
        return 1;
      }
    }
    if (!(await sock_sync_data(res.sync!, Buffer.from('W')))) {
      err('sync error after RDMA ops');
      return 1;
    }
    if (!config.server_name) out(`Contents of server buffer: '${cstr(res.buf!)}'`);
    return 0;
  })();
  if (resources_destroy(res)) {
    err('failed to destroy resources');
    rc = 1;
  }
  out(`\ntest result is ${rc}`);
  if (rc && getErrno()) err(`(errno ${getErrno()})`);
  return rc;
}

main(process.argv.slice(2)).then(
  (rc) => {
    process.exitCode = rc;
  },
  (e: unknown) => {
    err(String((e as Error)?.stack ?? e));
    process.exitCode = 1;
  },
);
