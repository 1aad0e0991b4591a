/**
 * Deframer and CRC32C throughput: the receive path's per-octet cost.
 *
 * - FpduDeframer over a stream of 64 KiB FPDUs (ULPDU 65530 octets + 2 + 4 = 65536), CRC off
 *   and on, pushed as 64 KiB chunks aligned with the FPDUs (every FPDU takes the one-chunk fast
 *   path) and as 60000-octet chunks (most FPDUs straddle two chunks), plus CRC on with Markers
 *   (65000-octet ULPDUs: the 16-bit FPDUPTR cannot span a full 64 KiB FPDU of Markers).
 *   With CRC off the deframer reads only the 2-octet headers (the ULPDU is handed out as views),
 *   so that figure is header-parsing speed; the "payload copied out" row adds one copy of every
 *   ULPDU into a destination buffer, as placing tagged data into a registered region would.
 * - CRC32C over 64 KiB and 1 MiB buffers: the package addon's hardware CRC vs the
 *   @node-rs/crc32 addon vs the JS slicing-by-8 fallback.
 */
import { crc32cHardware, crc32cJs, crc32cNative } from '../src/wire/crc32c.js';
import { copyUlpdu, FpduDeframer } from '../src/wire/deframer.js';
import { encodeFpdu, MarkerInserter } from '../src/wire/mpa.js';
import { type BenchRow, type BenchSection, throughputMBps } from './harness.js';

const ULPDU = 65530;
// With Markers the 16-bit FPDUPTR must reach back to ULPDU_LENGTH from the FPDU's last Marker,
// which 128 Markers in a 64 KiB FPDU would overflow; 65000 octets keeps it below 65536.
const ULPDU_MARKERS = 65000;
const FPDUS = 64;

function stream(crc: boolean, markers: boolean): Uint8Array {
  const len = markers ? ULPDU_MARKERS : ULPDU;
  const ulpdu = new Uint8Array(len);
  for (let i = 0; i < len; i++) ulpdu[i] = (i * 31) & 0xff;
  const parts: Uint8Array[] = [];
  const ins = new MarkerInserter(0);
  for (let i = 0; i < FPDUS; i++) {
    if (markers) parts.push(...ins.frame([ulpdu], crc));
    else parts.push(encodeFpdu(ulpdu, { crc }));
  }
  const total = parts.reduce((n, p) => n + p.length, 0);
  const out = new Uint8Array(total);
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}

function chunked(wire: Uint8Array, size: number): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (let i = 0; i < wire.length; i += size) out.push(wire.subarray(i, i + size));
  return out;
}

function deframerRow(name: string, crc: boolean, markers: boolean, chunk: number, copyOut = false): BenchRow {
  const wire = stream(crc, markers);
  const chunks = chunked(wire, chunk);
  // Stands in for a registered memory region that tagged payload is placed into.
  const region = new Uint8Array(ULPDU);
  let delivered = 0;
  const value = throughputMBps(() => {
    const d = new FpduDeframer({
      maxUlpdu: 0xffff,
      crc,
      markers,
      onFpdu: (f) => {
        if (copyOut) copyUlpdu(f, region);
        delivered += f.length;
      },
      onError: (e) => {
        throw e;
      },
    });
    for (const c of chunks) d.push(c);
  }, wire.length);
  if (delivered === 0) throw new Error('nothing delivered');
  return { name, value, unit: 'MB/s' };
}

export const deframerSection: BenchSection = {
  name: 'deframer (64 KiB FPDUs) and CRC32C',
  run(): BenchRow[] {
    const rows: BenchRow[] = [
      deframerRow('deframer, CRC off, 64 KiB aligned chunks', false, false, 65536),
      deframerRow('deframer, CRC on,  64 KiB aligned chunks', true, false, 65536),
      deframerRow('deframer, CRC off, 60000-octet chunks', false, false, 60000),
      deframerRow('deframer, CRC off, 60000-octet chunks, payload copied out', false, false, 60000, true),
      deframerRow('deframer, CRC on,  60000-octet chunks', true, false, 60000),
      deframerRow('deframer, CRC on + Markers (65000-octet ULPDUs), 60000-octet chunks', true, true, 60000),
    ];
    const buf = new Uint8Array(1 << 20);
    for (let i = 0; i < buf.length; i++) buf[i] = (i * 7) & 0xff;
    let sink = 0;
    const impls: [string, ((d: Uint8Array) => number) | undefined][] = [
      ['hardware (package addon)', crc32cHardware],
      ['native (@node-rs/crc32)', crc32cNative],
      ['JS slicing-by-8', crc32cJs],
    ];
    for (const size of [64 << 10, 1 << 20]) {
      const view = buf.subarray(0, size);
      const label = size === 1 << 20 ? '1 MiB' : '64 KiB';
      for (const [name, fn] of impls) {
        if (!fn) {
          rows.push({ name: `CRC32C ${name}, ${label}: not available`, value: Number.NaN, unit: 'MB/s' });
          continue;
        }
        rows.push({ name: `CRC32C ${name}, ${label}`, value: throughputMBps(() => (sink ^= fn(view)), size), unit: 'MB/s' });
      }
    }
    if (sink === 0.5) console.log(sink); // keep the CRC results observable
    return rows;
  },
};
