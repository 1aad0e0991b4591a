/**
 * tshark's `infiniband` dissector (RRoCE on UDP 4791) decodes the CM MADs this codec writes.
 *
 * The RoCEv2 framing is written here, minimally, because the IB packet codecs (BTH, DETH,
 * ICRC) are not in `main` yet: Ethernet | IPv4 (DF, ID 0) | UDP 4791 (checksum 0, as rxe) |
 * BTH (UD SEND_ONLY 0x64, P_Key 0xFFFF, DestQP 1) | DETH (Q_Key 0x80010000, SrcQP 1) | MAD |
 * ICRC (CRC-32 over the masked pseudo-header, little-endian; IBTA Annex A17.3.3 as rxe).
 * Skips when tshark is not installed; CI installs it (.ci/run).
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import zlib from 'node:zlib';
import { IbCm } from '../../src/ibcm/cm.js';
import { ManualClock, MemoryGsiFabric } from '../../src/ibcm/gsi.js';
import { type CmMessage, cmaAddrFromIpv4, decodeCmMad, encodeCmaHdr, RdmaPs, rdmaServiceId } from '../../src/wire/ib/cm.js';
import { GSI_QKEY } from '../../src/wire/ib/mad.js';
import { PcapWriter } from '../../src/wire/pcap.js';
import { GID_A, GID_B, seeded } from '../ibcm/helpers.js';
import { concat } from './helpers.js';

function tsharkAvailable(): boolean {
  return spawnSync('tshark', ['--version'], { encoding: 'utf8' }).status === 0;
}

function tshark(args: string[]): string {
  const r = spawnSync('tshark', args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  assert.equal(r.status, 0, r.stderr);
  return r.stdout;
}

function ipv4Checksum(h: Uint8Array): number {
  let s = 0;
  for (let i = 0; i < h.length; i += 2) s += (h[i]! << 8) | h[i + 1]!;
  while (s > 0xffff) s = (s & 0xffff) + (s >>> 16);
  return ~s & 0xffff;
}

/** One RoCEv2 UD SEND_ONLY frame carrying `mad` from GSI to GSI. */
function roceFrame(mad: Uint8Array, src: Uint8Array, dst: Uint8Array, psn: number): Uint8Array {
  const bth = new Uint8Array(12);
  const bv = new DataView(bth.buffer);
  bth[0] = 0x64; // UD SEND_ONLY
  bth[1] = 0; // SE 0, M 0, PadCnt 0 (256 is a multiple of 4), TVer 0
  bv.setUint16(2, 0xffff);
  bv.setUint32(4, 1); // resv8a 0, DestQP 1
  bv.setUint32(8, psn & 0xffffff);
  const deth = new Uint8Array(8);
  const dv = new DataView(deth.buffer);
  dv.setUint32(0, GSI_QKEY);
  dv.setUint32(4, 1); // SrcQP 1
  const udpLen = 8 + 12 + 8 + mad.length + 4;
  const ip = new Uint8Array(20);
  const iv = new DataView(ip.buffer);
  ip[0] = 0x45;
  iv.setUint16(2, 20 + udpLen);
  iv.setUint16(6, 0x4000); // DF
  ip[8] = 64;
  ip[9] = 17;
  ip.set(src.subarray(12), 12);
  ip.set(dst.subarray(12), 16);
  iv.setUint16(10, ipv4Checksum(ip));
  const udp = new Uint8Array(8);
  const uv = new DataView(udp.buffer);
  uv.setUint16(0, 4791);
  uv.setUint16(2, 4791);
  uv.setUint16(4, udpLen);
  // ICRC: 8 × 0xFF for the absent LRH, then IP/UDP/BTH with the variant fields masked.
  const pseudo = concat([ip, udp, bth]);
  pseudo[1] = 0xff; // TOS
  pseudo[8] = 0xff; // TTL
  pseudo[10] = pseudo[11] = 0xff; // header checksum
  pseudo[26] = pseudo[27] = 0xff; // UDP checksum
  pseudo[28 + 4] = 0xff; // BTH resv8a (F/B)
  let crc = zlib.crc32(Buffer.alloc(8, 0xff));
  crc = zlib.crc32(pseudo, crc);
  crc = zlib.crc32(deth, crc);
  crc = zlib.crc32(mad, crc);
  const icrc = new Uint8Array(4);
  new DataView(icrc.buffer).setUint32(0, crc >>> 0, true);
  const eth = new Uint8Array(14);
  eth.set([2, 0, 0, 0, 0, dst[15]!], 0);
  eth.set([2, 0, 0, 0, 0, src[15]!], 6);
  eth[12] = 0x08;
  return concat([eth, ip, udp, bth, deth, mad, icrc]);
}

describe('tshark decodes the CM MADs (infiniband dissector, RRoCE)', () => {
  it('a whole exchange between two CMs: REQ, MRA, REP, RTU, DREQ, DREP, REJ, SIDR_REQ/REP, no malformed packet', (t) => {
    if (!tsharkAvailable()) {
      t.skip('tshark not installed');
      return;
    }
    // Run two real CMs over the in-memory GSI and capture what they send.
    const clock = new ManualClock();
    const frames: { mad: Uint8Array; msg: CmMessage; src: Uint8Array; dst: Uint8Array }[] = [];
    const fabric = new MemoryGsiFabric({
      timers: clock,
      tap: (mad, from, to) => {
        frames.push({ mad: mad.slice(), msg: decodeCmMad(mad).msg, src: from.gid, dst: to.gid });
        return 'pass';
      },
    });
    const rnd = seeded(3);
    const a = new IbCm({ port: fabric.port(GID_A), caGuid: 0xa1n, gids: () => [GID_A], timers: clock, random: rnd, timewaitMs: 10 });
    const b = new IbCm({ port: fabric.port(GID_B), caGuid: 0xb2n, gids: () => [GID_B], timers: clock, random: rnd, timewaitMs: 10 });
    const sid = rdmaServiceId(RdmaPs.TCP, 7174);
    b.listen(sid, (ev) => {
      if (ev.type === 'req') {
        ev.conn.mra(24);
        ev.conn.onEvent = (e) => e.type === 'dreq' && ev.conn.disconnect();
        clock.set(() => ev.conn.accept({ qpn: 0x22, startingPsn: 0x654321, privateData: Uint8Array.of(5) }), 10);
      }
    });
    b.listen(rdmaServiceId(RdmaPs.UDP, 7174), (ev) => ev.type === 'sidr-req' && ev.request.accept({ qpn: 0x44, qkey: 0x01234567 }));
    const cma = encodeCmaHdr({
      cmaVersion: 0,
      ipVersion: 4,
      srcPort: 40000,
      srcAddr: cmaAddrFromIpv4('192.168.77.1'),
      dstAddr: cmaAddrFromIpv4('192.168.77.2'),
    });
    const c = a.connect({ destGid: GID_B, localGid: GID_A, serviceId: sid, qpn: 0x11, startingPsn: 0x123456, privateData: cma }, (e) => {
      if (e.type === 'rep') c.ready();
    });
    clock.run({ until: () => c.state === 'ESTABLISHED' });
    clock.advance(5);
    c.disconnect();
    clock.run({ until: () => c.state === 'TIMEWAIT' });
    a.connect({ destGid: GID_B, localGid: GID_A, serviceId: rdmaServiceId(RdmaPs.TCP, 1), qpn: 0x12, startingPsn: 1 }, () => {});
    clock.run();
    a.sidrRequest({ destGid: GID_B, serviceId: rdmaServiceId(RdmaPs.UDP, 7174) }, () => {});
    clock.run();
    const kinds = frames.map((f) => f.msg.kind);
    assert.deepEqual(kinds, ['REQ', 'MRA', 'REP', 'RTU', 'DREQ', 'DREP', 'REQ', 'REJ', 'SIDR_REQ', 'SIDR_REP']);

    const dir = mkdtempSync(join(tmpdir(), 'softrdma-cm-'));
    try {
      const path = join(dir, 'cm.pcap');
      const w = new PcapWriter(path);
      for (const [i, f] of frames.entries()) w.writeFrame(roceFrame(f.mad, f.src, f.dst, i));
      w.close();
      const fields = [
        'frame.number',
        'infiniband.bth.opcode',
        'infiniband.bth.destqp',
        'infiniband.deth.q_key',
        'infiniband.mad.mgmtclass',
        'infiniband.mad.method',
        'infiniband.mad.attributeid',
        'infiniband.mad.transactionid',
        'infiniband.cm.req.serviceid',
        'infiniband.cm.req.localqpn',
        'infiniband.cm.req.startpsn',
        'infiniband.cm.req.prim_localgid_ipv4',
        'infiniband.cm.rep.localqpn',
        'infiniband.cm.rep.startpsn',
        'infiniband.cm.rej.reason',
        'infiniband.cm.req.remoteqpneecn',
        'infiniband.cm.req.remoteresptout',
        'infiniband.cm.req.localresptout',
        'infiniband.cm.req.retrcount',
        'infiniband.cm.req.rnrretrcount',
        'infiniband.cm.req.pppmtu',
        'infiniband.cm.req.maxcmretr',
        'infiniband.cm.req.prim_hoplim',
        'infiniband.cm.req.prim_localacktout',
        'infiniband.cm.req.prim_remotegid_ipv4',
        'infiniband.cm.req.ip_cm.sport',
        'infiniband.cm.req.ip_cm.sip4',
        'infiniband.cm.req.ip_cm.dip4',
        'infiniband.cm.rep.tgtackdelay',
        'infiniband.cm.rep.rnrretrcount',
        'infiniband.cm.rej.msgrej',
      ];
      const out = tshark([
        '-r',
        path,
        '-d',
        'udp.port==4791,infiniband',
        '-T',
        'fields',
        '-E',
        'separator=|',
        ...fields.flatMap((f) => ['-e', f]),
      ]);
      const rows = out
        .trim()
        .split('\n')
        .map((l) => Object.fromEntries(l.split('|').map((v, i) => [fields[i]!, v])));
      assert.equal(rows.length, frames.length);
      rows.forEach((r, i) => {
        const f = frames[i]!;
        const n = (k: string) => Number(r[k]);
        assert.equal(n('infiniband.bth.opcode'), 0x64, `frame ${i + 1}`);
        assert.equal(n('infiniband.bth.destqp'), 1);
        assert.equal(n('infiniband.deth.q_key'), GSI_QKEY);
        assert.equal(n('infiniband.mad.mgmtclass'), 0x07);
        assert.equal(n('infiniband.mad.method'), 0x03);
        const attr = Number(r['infiniband.mad.attributeid']);
        assert.equal(
          attr,
          { REQ: 0x10, MRA: 0x11, REJ: 0x12, REP: 0x13, RTU: 0x14, DREQ: 0x15, DREP: 0x16, SIDR_REQ: 0x17, SIDR_REP: 0x18 }[f.msg.kind],
        );
        assert.equal(BigInt(r['infiniband.mad.transactionid']!), decodeCmMad(f.mad).header.tid);
      });
      assert.equal(BigInt(rows[0]!['infiniband.cm.req.serviceid']!), sid);
      assert.equal(Number(rows[0]!['infiniband.cm.req.localqpn']), 0x11);
      assert.equal(Number(rows[0]!['infiniband.cm.req.startpsn']), 0x123456);
      assert.equal(rows[0]!['infiniband.cm.req.prim_localgid_ipv4'], '192.168.77.1');
      assert.equal(Number(rows[2]!['infiniband.cm.rep.localqpn']), 0x22);
      assert.equal(Number(rows[2]!['infiniband.cm.rep.startpsn']), 0x654321);
      assert.equal(Number(rows[7]!['infiniband.cm.rej.reason']), 8);
      assert.equal(Number(rows[4]!['infiniband.cm.req.remoteqpneecn']), 0x22);
      // The REQ's bit fields as Wireshark reads them (rdma_cm's values on RoCE).
      const req = rows[0]!;
      const num = (k: string) => Number(req[k]);
      assert.deepEqual(
        [
          num('infiniband.cm.req.remoteresptout'),
          num('infiniband.cm.req.localresptout'),
          num('infiniband.cm.req.retrcount'),
          num('infiniband.cm.req.rnrretrcount'),
          num('infiniband.cm.req.pppmtu'),
          num('infiniband.cm.req.maxcmretr'),
          num('infiniband.cm.req.prim_hoplim'),
          num('infiniband.cm.req.prim_localacktout'),
        ],
        [20, 20, 7, 7, 3, 15, 64, 19],
      );
      assert.equal(req['infiniband.cm.req.prim_remotegid_ipv4'], '192.168.77.2');
      assert.equal(num('infiniband.cm.req.ip_cm.sport'), 40000);
      assert.equal(req['infiniband.cm.req.ip_cm.sip4'], '192.168.77.1');
      assert.equal(req['infiniband.cm.req.ip_cm.dip4'], '192.168.77.2');
      assert.equal(Number(rows[2]!['infiniband.cm.rep.tgtackdelay']), 15);
      assert.equal(Number(rows[2]!['infiniband.cm.rep.rnrretrcount']), 7);
      assert.equal(Number(rows[7]!['infiniband.cm.rej.msgrej']), 0);

      const verbose = tshark(['-r', path, '-d', 'udp.port==4791,infiniband', '-V']);
      assert.doesNotMatch(verbose, /Malformed/i);
      assert.equal(verbose.match(/^InfiniBand$/gm)?.length, frames.length);
      const expert = tshark(['-r', path, '-d', 'udp.port==4791,infiniband', '-q', '-z', 'expert']);
      assert.doesNotMatch(expert, /^Errors \(/m);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
