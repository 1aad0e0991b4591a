#!/usr/bin/env node
// The active side against a real iWARP peer: connects to a guest `rping -s` (Linux siw) through
// the softrdma CM, logs the MPA exchange, and plays the rping client for `--count` pings:
//   our Send {addr, rkey, len} of the ping buffer → its RDMA Read → its Send "go"
//   our Send {addr, rkey, len} of a sink        → its RDMA Write  → its Send "go" → compare.
//
//   ./run-guest.sh 'rping -s -a 192.168.77.2 -p 7174 -C 1 -v & sleep 1; echo READY; wait' &
//   ./host-exec.sh node scripts/kp-connect.mjs --host 192.168.77.2 --port 7174
//
// Retries the TCP connect while the guest boots (until --wait seconds). Plain JS on dist/.
import { CmError, cmConnect } from '../dist/src/iwarp/cm.js';
import { hostMemory } from '../dist/src/rnic/hostmem.js';
import { mrReg } from '../dist/src/rnic/memops.js';
import { postRq, postSq } from '../dist/src/rnic/post.js';
import { QP_STATE_NAMES } from '../dist/src/rnic/qp.js';
import { Rnic } from '../dist/src/rnic/rnic.js';
import { RiAsyncEventType, RiMemFlags, RiWcStatus, RiWcType, RiWrFlags, RiWrType } from '../dist/src/rnicpi/types.js';
import { decodeMpaReqRep, stringifyMpaReqRep } from '../dist/src/wire/mpa.js';

const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : dflt;
};
const HOST = opt('host', '192.168.77.2');
const PORT = Number(opt('port', '7174'));
const COUNT = Number(opt('count', '1'));
const WAIT = Number(opt('wait', '90'));
const SIZE = 64;

const t0 = Date.now();
const log = (...a) => console.log(`[host +${((Date.now() - t0) / 1000).toFixed(3)}s]`, ...a);
const must = (v, what) => {
  if (typeof v === 'number') throw new Error(`${what} failed: ${v}`);
  return v;
};

const rnic = new Rnic();
rnic.asyncHandler = (_o, ev) => log(`async event ${RiAsyncEventType[ev.event_type]}`);
const pd = must(rnic.pdAlloc('pd'), 'pd');
const cq = must(rnic.cqCreate(64, 0, 'cq'), 'cq');
const mkQp = () =>
  must(
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
      ord: 1,
      ird: 1,
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
  return { buf, mr, addr: hostMemory.addressOf(buf), sge: (len = n) => ({ stag: mr.stag, to: hostMemory.addressOf(buf), len }) };
};
const recvBuf = region(16);
const sendBuf = region(16);
const startBuf = region(SIZE);
const rdmaBuf = region(SIZE);

const trace = (e) => {
  const r = decodeMpaReqRep(e.bytes);
  log(
    `${e.dir === 'rx' ? '←' : '→'} MPA ${e.what}: ${r.status === 'frame' ? stringifyMpaReqRep(r.frame) : '?'}  ${Buffer.from(e.bytes).toString('hex')}`,
  );
};

let qp = mkQp();
let conn = null;
for (;;) {
  try {
    postRq(qp, 0, 1n, [recvBuf.sge()]);
    conn = await cmConnect(qp, HOST, PORT, { ird: 1, ord: 1, trace });
    break;
  } catch (e) {
    if (!(e instanceof CmError) || !['refused', 'unreachable', 'timeout', 'reset'].includes(e.kind) || Date.now() - t0 > WAIT * 1000) {
      log(`connect failed: ${e.kind ?? ''} ${e.message}`);
      process.exit(1);
    }
    // The posted receive stays on the Idle QP; start over with a fresh one.
    rnic.qpDestroy(qp);
    qp = mkQp();
    await new Promise((r) => setTimeout(r, 500));
  }
}
log(
  `connected: QP[${qp.id}] ${QP_STATE_NAMES[qp.state]} IRD=${qp.ird} ORD=${qp.ord} crc=${qp.mpa.crc} peer IRD/ORD ${conn.agreement.peerIrd}/${conn.agreement.peerOrd}`,
);

const info = (r, len) => {
  const dv = new DataView(sendBuf.buf.buffer, sendBuf.buf.byteOffset, 16);
  dv.setBigUint64(0, r.addr);
  dv.setUint32(8, r.mr.stag);
  dv.setUint32(12, len);
  const rc = postSq(qp, { type: RiWrType.SEND, flags: RiWrFlags.SIGNALED_FLAG, id: 1n, sgl: [sendBuf.sge()] }, true);
  if (rc !== 0) log(`postSq failed: ${rc}`);
};
const nextWc = async (type) => {
  for (;;) {
    const w = [];
    if (cq.poll(w, 1) === 1) {
      log(`WC ${RiWcType[w[0].op_type]} ${RiWcStatus[w[0].op_status]} ${w[0].bytes_transferred} octets`);
      if (w[0].op_status !== RiWcStatus.SUCCESS) throw new Error('work request failed');
      if (w[0].op_type === type) return w[0];
    } else await new Promise((r) => setTimeout(r, 2));
  }
};

let ok = true;
for (let ping = 0; ping < COUNT; ping++) {
  const text = `rdma-ping-${ping}: `;
  startBuf.buf.fill(0);
  startBuf.buf.set(Buffer.from(text));
  let c = 65 + (ping % 58);
  for (let i = text.length; i < SIZE - 1; i++) {
    startBuf.buf[i] = c;
    c = c >= 122 ? 65 : c + 1;
  }
  info(startBuf, SIZE); // the server RDMA-Reads this
  await nextWc(RiWcType.DATA_RECEIVED);
  postRq(qp, 0, 1n, [recvBuf.sge()]);
  rdmaBuf.buf.fill(0);
  info(rdmaBuf, SIZE); // the server RDMA-Writes the data back here
  await nextWc(RiWcType.DATA_RECEIVED);
  postRq(qp, 0, 1n, [recvBuf.sge()]);
  const same = Buffer.compare(Buffer.from(startBuf.buf), Buffer.from(rdmaBuf.buf)) === 0;
  ok &&= same;
  log(`ping data: ${Buffer.from(rdmaBuf.buf.subarray(0, rdmaBuf.buf.indexOf(0))).toString()} ${same ? '(verified)' : '(MISMATCH)'}`);
}
const closed = new Promise((r) => conn.once('close', r));
log(`disconnect: ${conn.disconnect('graceful') === 0 ? 'graceful close started' : 'refused'}`);
await Promise.race([closed, new Promise((r) => setTimeout(r, 10_000))]);
log(`done: QP[${qp.id}] ${QP_STATE_NAMES[qp.state]}, ${ok ? 'all pings verified' : 'MISMATCH'}`);
rnic.close();
process.exit(ok ? 0 : 1);
