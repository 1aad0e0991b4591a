/**
 * Cross-checks the InfiniBand codecs against an independent implementation: writes a pcap of
 * RoCEv2 packets (every opcode, several payload sizes, through `PcapWriter.udpDatagram` on UDP
 * port 4791) and has tshark's `infiniband` dissector (RRoCE) decode it: no malformed packet,
 * and every header field as we encoded it. Skips when tshark is not installed; CI installs it.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { encodeIbPacket, IB_OPCODES, type IbPacket, ibPadCount, newBth } from '../../src/wire/ib/index.js';
import { PcapWriter, ROCEV2_UDP_PORT } from '../../src/wire/pcap.js';

/**
 * Heuristic dissectors of the InfiniBand payload that would claim our test bytes (RPC-over-RDMA,
 * SMB Direct, SMC-R, Ethernet over IB, …): off, so the payload stays opaque data.
 */
export const TSHARK_IB_ARGS = [
  ...['smc', 'smb_direct', 'rpcordma', 'nvme-rdma', 'lnet', 'iser', 'fcoib', 'infiniband_sdp'].flatMap((p) => ['--disable-protocol', p]),
  ...['mellanox_eoib', 'eth_over_ib'].flatMap((h) => ['--disable-heuristic', h]),
];

const hasTshark = spawnSync('tshark', ['--version']).status === 0;

const FIELDS = [
  'infiniband.bth.opcode',
  'infiniband.bth.se',
  'infiniband.bth.padcnt',
  'infiniband.bth.p_key',
  'infiniband.bth.destqp',
  'infiniband.bth.a',
  'infiniband.bth.psn',
  'infiniband.reth.va',
  'infiniband.reth.r_key',
  'infiniband.reth.dmalen',
  'infiniband.aeth.syndrome',
  'infiniband.aeth.msn',
  'infiniband.atomiceth.swapdt',
  'infiniband.atomiceth.cmpdt',
  'infiniband.atomicacketh.origremdt',
  'infiniband.deth.q_key',
  'infiniband.deth.srcqp',
  'infiniband.invariant.crc',
] as const;

const dec = (v: number | bigint) => v.toString();
const bool = (v: boolean) => (v ? '1' : '0');

function packets(): { pkt: IbPacket; want: string[] }[] {
  const out: { pkt: IbPacket; want: string[] }[] = [];
  let psn = 0xfffff0; // crosses the 24-bit wrap
  for (const [opcode, info] of IB_OPCODES.entries()) {
    if (!info) continue;
    const sizes = info.payload ? (info.last ? [0, 1, 2, 3, 4, 1024] : [4, 1024]) : [0];
    for (const len of sizes) {
      const payload = new Uint8Array(len).map((_, i) => (i * 13 + opcode) & 0xff);
      const p: IbPacket = {
        bth: {
          ...newBth(opcode, 0x000011 + opcode, psn),
          padCnt: ibPadCount(len),
          ackReq: info.last,
          se: info.operation === 'send' && info.last,
        },
        payload,
      };
      psn = (psn + 1) & 0xffffff;
      if (info.rethOffset >= 0) p.reth = { va: 0x7f0012345678n + BigInt(opcode), rkey: 0x1234 + opcode, dmaLen: 4096 + opcode };
      if (info.aethOffset >= 0) p.aeth = { syndrome: opcode === 0x11 ? 0x62 : 0x1f, msn: 3 + opcode };
      if (info.atomicEthOffset >= 0) p.atomicEth = { va: 0x2000n, rkey: 1, swapAdd: 0x1122334455667788n, compare: 3n };
      if (info.atomicAckEthOffset >= 0) p.atomicAckEth = { origData: 0x99n };
      if (info.dethOffset >= 0) p.deth = { qkey: 0x11111111, resv8: 0, srcQp: 0x22 };
      if (info.immDtOffset >= 0) p.immDt = 0xcafe;
      if (info.iethOffset >= 0) p.ieth = 0x77;
      out.push({ pkt: p, want: [] });
    }
  }
  for (const o of out) {
    const { bth, reth, aeth, atomicEth, atomicAckEth, deth } = o.pkt;
    o.want = [
      dec(bth.opcode),
      bool(bth.se),
      dec(bth.padCnt),
      dec(bth.pkey),
      dec(bth.destQp),
      bool(bth.ackReq),
      dec(bth.psn),
      // tshark files the AtomicETH's VA and R_Key under the RETH fields.
      reth ? dec(reth.va) : atomicEth ? dec(atomicEth.va) : '',
      reth ? dec(reth.rkey) : atomicEth ? dec(atomicEth.rkey) : '',
      reth ? dec(reth.dmaLen) : '',
      aeth ? dec(aeth.syndrome) : '',
      aeth ? dec(aeth.msn) : '',
      atomicEth ? dec(atomicEth.swapAdd) : '',
      atomicEth ? dec(atomicEth.compare) : '',
      atomicAckEth ? dec(atomicAckEth.origData) : '',
      deth ? dec(deth.qkey) : '',
      deth ? dec(deth.srcQp) : '',
    ];
  }
  return out;
}

describe('RoCEv2 pcap decodes in tshark as RRoCE', { skip: hasTshark ? false : 'tshark not installed' }, () => {
  it('every opcode and pad length: no malformed packet, fields as encoded, ICRC shown as on the wire', () => {
    const dir = mkdtempSync(join(tmpdir(), 'softrdma-ib-tshark-'));
    try {
      const file = join(dir, 'rocev2.pcap');
      const w = new PcapWriter(file);
      const a = { ip: '10.0.0.1', port: ROCEV2_UDP_PORT };
      const b = { ip: '10.0.0.2', port: ROCEV2_UDP_PORT };
      const ps = packets();
      const wires: Uint8Array[] = [];
      for (const [i, { pkt }] of ps.entries()) {
        const fromA = i % 2 === 0;
        const src = fromA ? a : b;
        const dst = fromA ? b : a;
        const wire = encodeIbPacket(pkt, {
          src: Uint8Array.from(src.ip.split('.').map(Number)),
          dst: Uint8Array.from(dst.ip.split('.').map(Number)),
          srcPort: src.port,
          dstPort: dst.port,
          ipId: 0,
        });
        wires.push(wire);
        w.udpDatagram({ src, dst, payload: wire, ipId: 0 });
      }
      w.close();
      const bad = spawnSync('tshark', ['-r', file, ...TSHARK_IB_ARGS, '-Y', '_ws.malformed || _ws.expert.severity >= "error"'], {
        encoding: 'utf8',
      });
      assert.equal(bad.status, 0, bad.stderr);
      assert.equal(bad.stdout.trim(), '', `malformed or error frames:\n${bad.stdout}`);
      const r = spawnSync(
        'tshark',
        ['-r', file, ...TSHARK_IB_ARGS, '-T', 'fields', '-E', 'separator=|', ...FIELDS.flatMap((f) => ['-e', f])],
        { encoding: 'utf8', maxBuffer: 64 << 20 },
      );
      assert.equal(r.status, 0, r.stderr);
      const rows = r.stdout.trimEnd().split('\n');
      assert.equal(rows.length, ps.length);
      for (const [i, row] of rows.entries()) {
        const cols = row.split('|');
        // tshark prints numbers in decimal (or hex for some fields): normalise both ways.
        const got = cols
          .slice(0, ps[i]!.want.length)
          .map((c) => (c.startsWith('0x') ? BigInt(c).toString() : c === 'True' ? '1' : c === 'False' ? '0' : c));
        assert.deepEqual(got, ps[i]!.want, `frame ${i + 1}`);
        const w4 = wires[i]!.subarray(wires[i]!.length - 4);
        const crc = BigInt(cols[FIELDS.length - 1]!);
        assert.equal(crc, BigInt(((w4[0]! << 24) | (w4[1]! << 16) | (w4[2]! << 8) | w4[3]!) >>> 0), `frame ${i + 1} ICRC`);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('RoCEv2 over IPv6 in the pcap decodes in tshark', { skip: hasTshark ? false : 'tshark not installed' }, () => {
  it('Ethernet/IPv6/UDP frames: addresses, ports, a correct UDP checksum, and the IB headers as encoded', () => {
    const dir = mkdtempSync(join(tmpdir(), 'softrdma-ib6-tshark-'));
    try {
      const file = join(dir, 'rocev2-ipv6.pcap');
      const w = new PcapWriter(file);
      const a = { ip: 'fd77::1', port: 49152 };
      const b = { ip: 'fe80::5054:ff:fe4b:5002%kpbr0', port: ROCEV2_UDP_PORT };
      const ps = packets().slice(0, 12);
      for (const [i, { pkt }] of ps.entries()) {
        const [src, dst] = i % 2 === 0 ? [a, b] : [b, a];
        w.udpDatagram({ src, dst, payload: encodeIbPacket(pkt), ttl: 64 });
      }
      w.close();
      const bad = spawnSync(
        'tshark',
        [
          '-r',
          file,
          ...TSHARK_IB_ARGS,
          '-o',
          'udp.check_checksum:TRUE',
          '-Y',
          '_ws.malformed || _ws.expert.severity >= "error" || udp.checksum.status == 0',
        ],
        { encoding: 'utf8' },
      );
      assert.equal(bad.status, 0, bad.stderr);
      assert.equal(bad.stdout.trim(), '', `malformed, error or bad-checksum frames:\n${bad.stdout}`);
      const r = spawnSync(
        'tshark',
        [
          '-r',
          file,
          ...TSHARK_IB_ARGS,
          '-o',
          'udp.check_checksum:TRUE',
          '-T',
          'fields',
          '-E',
          'separator=|',
          '-e',
          'ipv6.src',
          '-e',
          'ipv6.dst',
          '-e',
          'udp.srcport',
          '-e',
          'udp.dstport',
          '-e',
          'udp.checksum.status',
          '-e',
          'infiniband.bth.opcode',
          '-e',
          'infiniband.bth.psn',
        ],
        { encoding: 'utf8' },
      );
      assert.equal(r.status, 0, r.stderr);
      const rows = r.stdout.trimEnd().split('\n');
      assert.equal(rows.length, ps.length);
      for (const [i, row] of rows.entries()) {
        const [s, d, sp, dp, ck, op, psn] = row.split('|');
        const fromA = i % 2 === 0;
        assert.deepEqual(
          [s, d, sp, dp],
          fromA ? ['fd77::1', 'fe80::5054:ff:fe4b:5002', '49152', '4791'] : ['fe80::5054:ff:fe4b:5002', 'fd77::1', '4791', '49152'],
          `frame ${i + 1}`,
        );
        assert.equal(ck, '1', `frame ${i + 1}: UDP checksum status (Wireshark: 0 bad, 1 good, 2 unverified)`);
        assert.equal(BigInt(op!).toString(), String(ps[i]!.pkt.bth.opcode), `frame ${i + 1} opcode`);
        assert.equal(BigInt(psn!).toString(), String(ps[i]!.pkt.bth.psn), `frame ${i + 1} PSN`);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
