/**
 * Live tracing: a connection that does every wire operation writes pcaps (SOFTRDMA_PCAP),
 * and tshark decodes every frame as iWARP with no malformed frame and no bad CRC.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { RiRet } from '../../src/rnicpi/status.js';
import { RiMemFlags, RiQpState, RiWcStatus, RiWrFlags, RiWrType } from '../../src/rnicpi/types.js';
import { AtomicKind, atomicArgs } from '../../src/rnic/atomics.js';
import { hostMemory } from '../../src/rnic/hostmem.js';
import { DEFAULT_CONFIG, Rnic } from '../../src/rnic/rnic.js';
import { concatUlpdu, FpduDeframer } from '../../src/wire/deframer.js';
import { decodeMpaReqRep } from '../../src/wire/mpa.js';
import { decodeRdmapHeader, stringifyRdmapHeader } from '../../src/wire/rdmap.js';
import { connectPair, makeSide, pollN, recv, reg, send, sge, until } from '../helpers/engine.js';

const hasTshark = spawnSync('tshark', ['--version']).status === 0;
const OPTS = [
  '--disable-protocol',
  'rpcordma',
  '--disable-protocol',
  'smb_direct',
  '--disable-protocol',
  'nvme-rdma',
  '--disable-protocol',
  'iser',
];

test('SOFTRDMA_PCAP captures of a live connection decode in tshark: every opcode, no malformed frame, no bad CRC', {
  skip: hasTshark ? false : 'tshark not installed',
}, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'softrdma-pcap-'));
  process.env.SOFTRDMA_PCAP = dir;
  try {
    const a = makeSide();
    // Its MR made by a registration may be invalidated by the peer (the Verbs §7.8 rule).
    const b = makeSide(new Rnic({ ...DEFAULT_CONFIG, remoteInvalidateRegistered: true }));
    const src = new Uint8Array(100_000).fill(3);
    const dst = new Uint8Array(100_000);
    const rd1 = new Uint8Array(30_000);
    const rd2 = new Uint8Array(70_000);
    const mrSrc = reg(a, src);
    const mrRd1 = reg(a, rd1);
    const mrRd2 = reg(a, rd2);
    const mrDst = reg(b, dst);
    // An STag on b that a's Send with Invalidate will invalidate remotely.
    const victim = new Uint8Array(64);
    const mrVictim = reg(b, victim, RiMemFlags.LOCAL_READ | RiMemFlags.LOCAL_WRITE | RiMemFlags.REMOTE_WRITE);
    const rbufs = [0, 1, 2, 3].map(() => new Uint8Array(256));
    const rmrs = rbufs.map((r) => reg(b, r));
    const pair = await connectPair(a, b, {
      mpaA: { crc: true },
      beforeRts: (s) => {
        if (s !== b) return;
        for (const [i, r] of rbufs.entries()) assert.equal(recv(b.qp, BigInt(i), [sge(rmrs[i]!, r)]), RiRet.SUCCESS);
      },
    });
    try {
      const dstVa = hostMemory.addressOf(dst);
      assert.equal(
        send(a.qp, { type: RiWrType.RDMA_WRITE, id: 1n, sgl: [sge(mrSrc, src)], rtag: mrDst.stag, remoteTo: dstVa }),
        RiRet.SUCCESS,
      );
      // A multi-SGE RDMA Read sink: two Read Requests on the wire.
      assert.equal(
        send(a.qp, { type: RiWrType.RDMA_READ, id: 2n, sgl: [sge(mrRd1, rd1), sge(mrRd2, rd2)], rtag: mrDst.stag, remoteTo: dstVa }),
        RiRet.SUCCESS,
      );
      const m = src.subarray(0, 100);
      const s = sge(mrSrc, src, 0, 100);
      assert.equal(send(a.qp, { type: RiWrType.SEND, id: 3n, sgl: [s] }), RiRet.SUCCESS);
      assert.equal(
        send(a.qp, { type: RiWrType.SEND, id: 4n, flags: RiWrFlags.SIGNALED_FLAG | RiWrFlags.SOLICITED_EVENT_FLAG, sgl: [s] }),
        RiRet.SUCCESS,
      );
      assert.equal(send(a.qp, { type: RiWrType.SEND_INVALIDATE, id: 5n, sgl: [s], rtag: mrVictim.stag }), RiRet.SUCCESS);
      assert.equal(
        send(a.qp, {
          type: RiWrType.SEND_INVALIDATE,
          id: 6n,
          flags: RiWrFlags.SIGNALED_FLAG | RiWrFlags.SOLICITED_EVENT_FLAG,
          sgl: [s],
          rtag: mrVictim.stag,
        }),
        RiRet.SUCCESS,
      );
      void m;
      const wcs = await pollN(a.cq, 6);
      assert.deepEqual(
        wcs.map((w) => w.op_status),
        [0, 0, 0, 0, 0, 0].map(() => RiWcStatus.SUCCESS),
      );
      assert.deepEqual(Buffer.from(rd1), Buffer.from(src.subarray(0, 30_000)));
      assert.deepEqual(Buffer.from(rd2), Buffer.from(src.subarray(30_000)));
      const rwcs = await pollN(b.cq, 4);
      assert.equal(rwcs[2]!.invalidated_rtag, mrVictim.stag);
      // ULP-initiated termination: a Terminate message on the wire.
      assert.equal(a.qp.modify({ nextState: RiQpState.TERMINATE }), RiRet.SUCCESS);
      await until(() => a.qp.state === RiQpState.ERROR && b.qp.state === RiQpState.ERROR, 5000, 'both in Error');
    } finally {
      await pair.close();
    }
    await new Promise((r) => setTimeout(r, 50));
    const files = readdirSync(dir).filter((f) => f.endsWith('.pcap'));
    assert.equal(files.length, 2, `one capture per side: ${files.join(',')}`);
    const opcodes = new Set<string>();
    for (const f of files) {
      const path = join(dir, f);
      const bad = spawnSync('tshark', ['-r', path, ...OPTS, '-Y', '_ws.malformed || _ws.expert.severity >= "error"'], { encoding: 'utf8' });
      assert.equal(bad.status, 0, bad.stderr);
      assert.equal(bad.stdout.trim(), '', `malformed/error frames in ${f}:\n${bad.stdout}`);
      const v = spawnSync('tshark', ['-r', path, ...OPTS, '-V'], { encoding: 'utf8', maxBuffer: 256 << 20 });
      assert.equal(v.stdout.includes('Bad CRC32'), false, `bad CRC in ${f}`);
      assert.match(v.stdout, /Good CRC32/);
      const fields = spawnSync('tshark', ['-r', path, ...OPTS, '-T', 'fields', '-e', 'iwarp_rdma.opcode'], { encoding: 'utf8' });
      for (const line of fields.stdout.split('\n')) for (const op of line.split(',')) if (op.trim()) opcodes.add(op.trim());
    }
    for (const op of ['0x00', '0x01', '0x02', '0x03', '0x04', '0x05', '0x06', '0x07']) {
      assert.ok(opcodes.has(op), `opcode ${op} decoded (saw ${[...opcodes].join(' ')})`);
    }
  } finally {
    delete process.env.SOFTRDMA_PCAP;
    rmSync(dir, { recursive: true, force: true });
  }
});

/**
 * RFC 7306 on the wire. Wireshark 4.0 decodes the Atomic Request and Response
 * (opcodes 0xA/0xB, `iwarp_rdma.atomic.*`) but has no Immediate Data (0x8/0x9): it shows the
 * opcode number and nothing of the 8-octet header. The capture is checked with tshark for what it
 * knows, and with our own decoder (the TCP payload replayed through the deframer and
 * `decodeRdmapHeader`) for all of it.
 */
test('SOFTRDMA_PCAP capture of RFC 7306 traffic: tshark decodes the atomics; Immediate Data is checked with our own decoder (Wireshark 4.0 has no dissector for it)', {
  skip: hasTshark ? false : 'tshark not installed',
}, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'softrdma-pcap7306-'));
  process.env.SOFTRDMA_PCAP = dir;
  try {
    const a = makeSide();
    const b = makeSide();
    // 8 octets of counter, then room for the 64-octet Write with Immediate.
    const target = new Uint8Array(80);
    new DataView(target.buffer).setBigUint64(0, 41n, true);
    const mrT = reg(b, target, RiMemFlags.LOCAL_READ | RiMemFlags.LOCAL_WRITE | RiMemFlags.REMOTE_WRITE | RiMemFlags.ATOMICS);
    const res = new Uint8Array(8);
    const mrRes = reg(a, res);
    const src = new Uint8Array(64).fill(7);
    const mrSrc = reg(a, src);
    const rbufs = [0, 1].map(() => new Uint8Array(64));
    const rmrs = rbufs.map((r) => reg(b, r));
    const pair = await connectPair(a, b, {
      mpaA: { crc: true },
      beforeRts: (s) => {
        if (s !== b) return;
        for (const [i, r] of rbufs.entries()) assert.equal(recv(b.qp, BigInt(i), [sge(rmrs[i]!, r)]), RiRet.SUCCESS);
      },
    });
    try {
      const tva = hostMemory.addressOf(target);
      assert.equal(
        send(a.qp, {
          type: RiWrType.FETCH_AND_ADD,
          id: 1n,
          sgl: [sge(mrRes, res)],
          rtag: mrT.stag,
          remoteTo: tva,
          atomic: atomicArgs(AtomicKind.FETCH_ADD, 8, 1n, 0n),
        }),
        RiRet.SUCCESS,
      );
      assert.equal(
        send(a.qp, {
          type: RiWrType.RDMA_WRITE_IMMEDIATE,
          id: 2n,
          sgl: [sge(mrSrc, src)],
          rtag: mrT.stag,
          remoteTo: tva + 8n,
          imm: 0xabcd,
          flags: RiWrFlags.SIGNALED_FLAG | RiWrFlags.SOLICITED_EVENT_FLAG,
        }),
        RiRet.SUCCESS,
      );
      assert.equal(send(a.qp, { type: RiWrType.SEND_IMMEDIATE, id: 3n, sgl: [sge(mrSrc, src, 0, 10)], imm: 0x1234 }), RiRet.SUCCESS);
      const wcs = await pollN(a.cq, 3);
      assert.deepEqual(
        wcs.map((w) => w.op_status),
        [RiWcStatus.SUCCESS, RiWcStatus.SUCCESS, RiWcStatus.SUCCESS],
      );
      await pollN(b.cq, 2);
    } finally {
      await pair.close();
    }
    await new Promise((r) => setTimeout(r, 50));
    // The active side's capture (its socket sees each FPDU as written).
    const files = readdirSync(dir).filter((f) => f.endsWith('-conn.pcap'));
    assert.equal(files.length, 1, readdirSync(dir).join(','));
    const path = join(dir, files[0]!);
    const bad = spawnSync('tshark', ['-r', path, ...OPTS, '-Y', 'iwarp_ddp_rdmap && (_ws.malformed || _ws.expert.severity >= "error")'], {
      encoding: 'utf8',
    });
    assert.equal(bad.stdout.trim(), '', `malformed frames:\n${bad.stdout}`);
    const f = spawnSync(
      'tshark',
      [
        '-r',
        path,
        ...OPTS,
        '-Y',
        'iwarp_rdma.opcode >= 8',
        '-T',
        'fields',
        '-E',
        'occurrence=f',
        '-e',
        'iwarp_rdma.opcode',
        '-e',
        'iwarp_ddp.qn',
        '-e',
        'iwarp_rdma.atomic.opcode',
        '-e',
        'iwarp_rdma.atomic.add_data',
        '-e',
        'iwarp_rdma.atomic.original_remote_data_value',
      ],
      { encoding: 'utf8' },
    );
    const rows = f.stdout
      .trim()
      .split('\n')
      .map((l) => l.split('\t'));
    const atomicReq = rows.find((r) => r[0] === '0x0a');
    const atomicResp = rows.find((r) => r[0] === '0x0b');
    assert.ok(atomicReq, `tshark shows the Atomic Request:\n${f.stdout}`);
    assert.deepEqual([atomicReq[1], atomicReq[2], BigInt(atomicReq[3]!)], ['1', '0', 1n], 'QN 1, FetchAdd (AOpCode 0), add 1');
    assert.ok(atomicResp, `tshark shows the Atomic Response:\n${f.stdout}`);
    assert.deepEqual([atomicResp[1], BigInt(atomicResp[4]!)], ['3', 41n], 'QN 3, original value 41');
    // Immediate Data: tshark knows the opcode number only (no field for the 64-bit Immediate Data).
    assert.ok(
      rows.some((r) => r[0] === '0x08' || r[0] === '0x09'),
      'Immediate Data frames present',
    );
    const fieldList = spawnSync('tshark', ['-G', 'fields'], { encoding: 'utf8', maxBuffer: 256 << 20 }).stdout;
    assert.equal(
      /\tiwarp_rdma\.imm/.test(fieldList),
      false,
      'Wireshark 4.0 has no Immediate Data field (if this fails, check it with tshark instead)',
    );
    // Our own decode of the same capture: each direction's TCP payload through the deframer.
    const p = spawnSync('tshark', ['-r', path, ...OPTS, '-Y', 'tcp.len > 0', '-T', 'fields', '-e', 'tcp.srcport', '-e', 'tcp.payload'], {
      encoding: 'utf8',
      maxBuffer: 256 << 20,
    });
    const streams = new Map<string, Buffer[]>();
    for (const line of p.stdout.trim().split('\n')) {
      const [port, hexData] = line.split('\t');
      if (!hexData) continue;
      streams.set(port!, [...(streams.get(port!) ?? []), Buffer.from(hexData.replace(/:/g, ''), 'hex')]);
    }
    const decoded: string[] = [];
    for (const chunks of streams.values()) {
      const all = Buffer.concat(chunks);
      const mpa = decodeMpaReqRep(all, all.subarray(0, 16).toString('latin1').includes('Req') ? 'request' : 'reply');
      assert.equal(mpa.status, 'frame');
      if (mpa.status !== 'frame') continue;
      const d = new FpduDeframer({
        maxUlpdu: 65535,
        crc: true,
        markers: false,
        onFpdu: (fp) => decoded.push(stringifyRdmapHeader(decodeRdmapHeader(concatUlpdu(fp)).header)),
        onError: (e) => assert.fail(String(e)),
      });
      d.push(all.subarray(mpa.consumed));
    }
    assert.ok(
      decoded.some((s) => /^RDMAP Immediate Data with SE \[.*QN=0.*\] imm=0xabcd$/.test(s)),
      decoded.join('\n'),
    );
    assert.ok(
      decoded.some((s) => /^RDMAP Immediate Data \[.*QN=0.*\] imm=0x1234$/.test(s)),
      decoded.join('\n'),
    );
    assert.ok(
      decoded.some((s) => /^RDMAP Atomic Request .* FetchAdd id=1 /.test(s)),
      decoded.join('\n'),
    );
    assert.ok(
      decoded.some((s) => /^RDMAP Atomic Response .* id=1 orig=0x29$/.test(s)),
      decoded.join('\n'),
    );
  } finally {
    delete process.env.SOFTRDMA_PCAP;
    rmSync(dir, { recursive: true, force: true });
  }
});
