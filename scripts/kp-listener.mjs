#!/usr/bin/env node
// First contact with a real iWARP peer: a softrdma listener for the kernel-peer harness
// (test/interop/kernel-peer). The guest's `rping -c` (Linux siw over rdma_cm) connects;
// we log its MPA Request and our Reply decoded, accept into a QP (→ RTS), log the first FPDUs it
// sends decoded with the wire codecs, and then play the rping server's side of one ping:
//   client Send {addr, rkey, len} → our RDMA Read of its buffer → our Send "go"
//   client Send {addr, rkey, len} → our RDMA Write of the data back → our Send "go"
//
//   npm run build
//   ./host-exec.sh node scripts/kp-listener.mjs --host 192.168.77.1 --port 7174 &
//   ./run-guest.sh 'rping -c -a 192.168.77.1 -p 7174 -C 1 -v'
//
// Plain JS on top of dist/ (no test helpers). Exits after the first connection closes, or after
// --lifetime seconds.
import { CmListener } from '../dist/src/iwarp/cm.js';
import { hostMemory } from '../dist/src/rnic/hostmem.js';
import { mrReg } from '../dist/src/rnic/memops.js';
import { postRq, postSq } from '../dist/src/rnic/post.js';
import { QP_STATE_NAMES } from '../dist/src/rnic/qp.js';
import { Rnic } from '../dist/src/rnic/rnic.js';
import { RiAsyncEventType, RiMemFlags, RiWcStatus, RiWcType, RiWrFlags, RiWrType } from '../dist/src/rnicpi/types.js';
import { concatUlpdu, FpduDeframer } from '../dist/src/wire/deframer.js';
import { decodeMpaReqRep, stringifyMpaReqRep } from '../dist/src/wire/mpa.js';
import { decodeRdmapHeader, stringifyRdmapHeader } from '../dist/src/wire/rdmap.js';
import { decodeTerminateMessage, stringifyTerminate } from '../dist/src/wire/terminate.js';

const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : dflt;
};
const HOST = opt('host', '192.168.77.1');
const PORT = Number(opt('port', '7174'));
const LIFETIME = Number(opt('lifetime', '120'));
const MAX_LOGGED_FPDUS = 8;

const t0 = Date.now();
const log = (...a) => console.log(`[host +${((Date.now() - t0) / 1000).toFixed(3)}s]`, ...a);
const hexdump = (b, max = 64) =>
  Buffer.from(b.subarray(0, max))
    .toString('hex')
    .replace(/(.{8})/g, '$1 ')
    .trim() + (b.length > max ? ' …' : '');

// ---- RNIC resources: one PD, one CQ, one QP, buffers as rping's server has them ----
const rnic = new Rnic();
const must = (v, what) => {
  if (typeof v === 'number') throw new Error(`${what} failed: ${v}`);
  return v;
};
rnic.asyncHandler = (_o, ev) => log(`async event ${RiAsyncEventType[ev.event_type]}`);
const pd = must(rnic.pdAlloc('pd'), 'pd');
const cq = must(rnic.cqCreate(64, 0, 'cq'), 'cq');
const qp = must(
  rnic.qpCreate({
    pd,
    scq: cq,
    rcq: cq,
    srq: null,
    sqSize: 16,
    rqSize: 16,
    sqMaxSges: 1,
    sqMaxSgesRdmaw: 1,
    rqMaxSges: 1,
    enableRdmaRead: true,
    enableRdmaWrite: true,
    ord: 4,
    ird: 4,
    stag0Enabled: false,
    enableBind: false,
    rqHiwat: 0,
    mpa: { crc: false, recvMarkers: false, xmitMarkers: false, ddpRdmapVersion: 1 },
    osData: 'qp',
  }),
  'qp',
);
const ACCESS = RiMemFlags.LOCAL_READ | RiMemFlags.LOCAL_WRITE | RiMemFlags.REMOTE_READ | RiMemFlags.REMOTE_WRITE;
const region = (n) => {
  const buf = new Uint8Array(n);
  const mr = must(mrReg(rnic, { va: hostMemory.addressOf(buf), length: n, flags: ACCESS, pd, key: 0 }, null), 'mr');
  return { buf, mr, sge: (len = n) => ({ stag: mr.stag, to: hostMemory.addressOf(buf), len }) };
};
const recvBuf = region(16); // struct rping_rdma_info { be64 buf; be32 rkey; be32 size; }
const sendBuf = region(16);
const rdmaBuf = region(65536);

const post = (wr) => {
  const r = postSq(qp, { flags: RiWrFlags.SIGNALED_FLAG, ...wr }, true);
  if (r !== 0) log(`postSq ${RiWrType[wr.type]} failed: ${r}`);
};
const postRecv = () => {
  const r = postRq(qp, 0, 1n, [recvBuf.sge()]);
  if (r !== 0) log(`postRq failed: ${r}`);
};

// ---- the listener ----
const listener = await CmListener.listen({
  host: HOST,
  port: PORT,
  trace: (e) => {
    const r = decodeMpaReqRep(e.bytes);
    log(
      `${e.dir === 'rx' ? '←' : '→'} MPA ${e.what} (${e.bytes.length} octets): ${r.status === 'frame' ? stringifyMpaReqRep(r.frame) : '?'}`,
    );
    log(`    ${hexdump(e.bytes)}`);
  },
});
log(`softrdma listening on ${HOST}:${listener.port} (pid ${process.pid})`);
listener.on('failure', (f) => log(`handshake failure from ${f.remoteAddress}:${f.remotePort}: ${f.kind}: ${f.error.message}`));

let conn = null;
listener.on('request', (req) => {
  log(
    `connection request from ${req.remoteAddress}:${req.remotePort}: rev ${req.revision}, enhanced ${req.enhanced}, ` +
      `peer IRD ${req.peerIrd} ORD ${req.peerOrd}, P2P ${req.p2p ? req.p2p.join(',') || '(none offered)' : 'no'}, ` +
      `private data ${req.privateData.length} octets`,
  );
  if (conn) {
    req.reject(new TextEncoder().encode('busy'));
    return;
  }
  postRecv();
  // Log the FPDUs the peer sends, from the very first octet after its Request.
  const tapData = (mpa) => {
    let n = 0;
    const d = new FpduDeframer({
      maxUlpdu: 65535,
      crc: mpa.crc,
      markers: mpa.recvMarkers,
      onFpdu: (f) => {
        if (n++ >= MAX_LOGGED_FPDUS) return;
        const u = concatUlpdu(f);
        try {
          const { header, headerLength } = decodeRdmapHeader(u);
          let extra = '';
          if (header.opcode === 7) extra = ` ${stringifyTerminate(decodeTerminateMessage(u).terminate)}`;
          log(`← FPDU #${n} (ULPDU ${f.length} octets): ${stringifyRdmapHeader(header)}${extra}`);
          log(`    payload ${hexdump(u.subarray(headerLength))}`);
        } catch (e) {
          log(`← FPDU #${n}: undecodable (${e.message}) ${hexdump(u)}`);
        }
      },
      onError: (e) => log(`← deframer error: ${e.message}`),
    });
    req.socket.on('data', (c) => d.push(new Uint8Array(c)));
  };
  try {
    conn = req.accept(qp, { ird: 4, ord: 4 });
  } catch (e) {
    log(`accept failed: ${e.kind}: ${e.message}`);
    req.reject();
    return;
  }
  tapData(conn.agreement.mpa);
  log(
    `accepted: QP[${qp.id}] ${QP_STATE_NAMES[qp.state]} crc=${qp.mpa.crc} markers rx=${qp.mpa.recvMarkers} tx=${qp.mpa.xmitMarkers} ` +
      `IRD=${qp.ird} ORD=${qp.ord} RTR=${conn.agreement.rtr ?? 'none'}`,
  );
  conn.on('close', () => {
    log(`TCP connection closed; QP[${qp.id}] ${QP_STATE_NAMES[qp.state]}`);
    setTimeout(shutdown, 100);
  });
});

// ---- rping server protocol, driven by completions ----
let phase = 'READ_ADV';
let remote = null;
const poller = setInterval(() => {
  const wcs = [];
  const n = cq.poll(wcs, 16);
  for (let i = 0; i < n; i++) onWc(wcs[i]);
}, 2);

function onWc(wc) {
  const what = `${RiWcType[wc.op_type]} ${RiWcStatus[wc.op_status]} ${wc.bytes_transferred} octets`;
  log(`WC ${what}`);
  if (wc.op_status !== RiWcStatus.SUCCESS) return;
  if (wc.op_type === RiWcType.DATA_RECEIVED) {
    const dv = new DataView(recvBuf.buf.buffer, recvBuf.buf.byteOffset, 16);
    remote = { addr: dv.getBigUint64(0), rkey: dv.getUint32(8), len: dv.getUint32(12) };
    log(`  rping info: buf 0x${remote.addr.toString(16)} rkey 0x${remote.rkey.toString(16)} len ${remote.len}`);
    postRecv();
    if (phase === 'READ_ADV') {
      post({
        type: RiWrType.RDMA_READ,
        id: 10n,
        sgl: [rdmaBuf.sge(Math.min(remote.len, rdmaBuf.buf.length))],
        rtag: remote.rkey,
        remoteTo: remote.addr,
      });
    } else {
      const s = rdmaBuf.buf.indexOf(0);
      const len = s >= 0 ? s + 1 : remote.len;
      post({ type: RiWrType.RDMA_WRITE, id: 11n, sgl: [rdmaBuf.sge(Math.min(len, remote.len))], rtag: remote.rkey, remoteTo: remote.addr });
      post({ type: RiWrType.SEND, id: 12n, sgl: [sendBuf.sge()] });
      phase = 'READ_ADV';
    }
  } else if (wc.op_type === RiWcType.RDMA_READ) {
    const end = rdmaBuf.buf.indexOf(0);
    log(`  server ping data: ${Buffer.from(rdmaBuf.buf.subarray(0, end >= 0 ? end : 64)).toString()}`);
    phase = 'WRITE_ADV';
    post({ type: RiWrType.SEND, id: 13n, sgl: [sendBuf.sge()] });
  }
}

let down = false;
function shutdown() {
  if (down) return;
  down = true;
  clearInterval(poller);
  clearTimeout(life);
  listener.close().then(() => {
    log(`done: QP[${qp.id}] ${QP_STATE_NAMES[qp.state]}`);
    rnic.close();
    process.exit(0);
  });
}
const life = setTimeout(() => {
  log(`lifetime of ${LIFETIME} s over`);
  shutdown();
}, LIFETIME * 1000);
process.on('SIGTERM', shutdown);
process.on('SIGINT', shutdown);
