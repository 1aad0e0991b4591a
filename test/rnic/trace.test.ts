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
import { hostMemory } from '../../src/rnic/hostmem.js';
import { connectPair, makeSide, pollN, recv, reg, send, sge, until } from '../helpers/engine.js';

const hasTshark = spawnSync('tshark', ['--version']).status === 0;
const OPTS = ['--disable-protocol', 'rpcordma', '--disable-protocol', 'smb_direct', '--disable-protocol', 'nvme-rdma', '--disable-protocol', 'iser'];

test('SOFTRDMA_PCAP captures of a live connection decode in tshark: every opcode, no malformed frame, no bad CRC', { skip: hasTshark ? false : 'tshark not installed' }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'softrdma-pcap-'));
  process.env.SOFTRDMA_PCAP = dir;
  try {
    const a = makeSide();
    const b = makeSide();
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
      assert.equal(send(a.qp, { type: RiWrType.RDMA_WRITE, id: 1n, sgl: [sge(mrSrc, src)], rtag: mrDst.stag, remoteTo: dstVa }), RiRet.SUCCESS);
      // A multi-SGE RDMA Read sink: two Read Requests on the wire.
      assert.equal(
        send(a.qp, { type: RiWrType.RDMA_READ, id: 2n, sgl: [sge(mrRd1, rd1), sge(mrRd2, rd2)], rtag: mrDst.stag, remoteTo: dstVa }),
        RiRet.SUCCESS,
      );
      const m = src.subarray(0, 100);
      const s = sge(mrSrc, src, 0, 100);
      assert.equal(send(a.qp, { type: RiWrType.SEND, id: 3n, sgl: [s] }), RiRet.SUCCESS);
      assert.equal(send(a.qp, { type: RiWrType.SEND, id: 4n, flags: RiWrFlags.SIGNALED_FLAG | RiWrFlags.SOLICITED_EVENT_FLAG, sgl: [s] }), RiRet.SUCCESS);
      assert.equal(send(a.qp, { type: RiWrType.SEND_INVALIDATE, id: 5n, sgl: [s], rtag: mrVictim.stag }), RiRet.SUCCESS);
      assert.equal(
        send(a.qp, { type: RiWrType.SEND_INVALIDATE, id: 6n, flags: RiWrFlags.SIGNALED_FLAG | RiWrFlags.SOLICITED_EVENT_FLAG, sgl: [s], rtag: mrVictim.stag }),
        RiRet.SUCCESS,
      );
      void m;
      const wcs = await pollN(a.cq, 6);
      assert.deepEqual(wcs.map((w) => w.op_status), [0, 0, 0, 0, 0, 0].map(() => RiWcStatus.SUCCESS));
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
