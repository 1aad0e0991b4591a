/**
 * The README's chart: bandwidth against message size from the sweep rows of one run, as a
 * self-contained SVG (log₂ size axis, linear MB/s axis, one line per series).
 */
import type { BenchRow } from './harness.js';

const SERIES: Array<{ match: string; name: string; color: string; dash?: string }> = [
  { match: 'raw TCP writes', name: 'raw Node TCP', color: '#444444' },
  { match: 'RDMA Write, CRC off', name: 'RDMA Write', color: '#1f77b4' },
  { match: 'RDMA Write, CRC on', name: 'RDMA Write, CRC on', color: '#1f77b4', dash: '6 4' },
  { match: 'RDMA Read, CRC off', name: 'RDMA Read', color: '#d62728' },
  { match: 'RDMA Read, CRC on', name: 'RDMA Read, CRC on', color: '#d62728', dash: '6 4' },
  { match: 'Send, CRC off', name: 'Send/Recv', color: '#2ca02c' },
  { match: 'Send, CRC on', name: 'Send/Recv, CRC on', color: '#2ca02c', dash: '6 4' },
  // The C peers of bench/peers.ts, measured in the same run.
  { match: ': ucp_put_bw', name: 'UCX put (tcp, C)', color: '#9467bd', dash: '2 3' },
  { match: ': tag_bw', name: 'UCX tag (tcp, C)', color: '#8c564b', dash: '2 3' },
];

const UNITS: Record<string, number> = { B: 1, KiB: 1024, MiB: 1024 * 1024 };

/** Size in octets from a sweep or peer row name ("sweep 64 KiB: …", "UCX tcp 4 KiB: …"). */
function sizeOf(name: string): number | null {
  const m = /^(?:sweep|UCX tcp) (\d+) (B|KiB|MiB):/.exec(name);
  return m ? Number(m[1]) * UNITS[m[2]!]! : null;
}

function sizeLabel(n: number): string {
  return n >= 1 << 20 ? `${n >> 20}M` : n >= 1024 ? `${n >> 10}K` : `${n}`;
}

/** The SVG, or null when the rows hold no sweep. */
export function bandwidthChart(rows: readonly BenchRow[], caption: string): string | null {
  const pts = SERIES.map((s) => ({
    ...s,
    data: rows
      .filter((r) => r.name.endsWith(s.match) && sizeOf(r.name) !== null)
      .map((r) => ({ x: sizeOf(r.name)!, y: r.value }))
      .sort((p, q) => p.x - q.x),
  })).filter((s) => s.data.length > 0);
  if (pts.length === 0) return null;
  const W = 720;
  const H = 420;
  const L = 70;
  const R = 190;
  const T = 40;
  const B = 50;
  const xs = [...new Set(pts.flatMap((s) => s.data.map((p) => p.x)))].sort((a, b) => a - b);
  const x0 = Math.log2(xs[0]!);
  const x1 = Math.log2(xs[xs.length - 1]!);
  const ymax = Math.max(...pts.flatMap((s) => s.data.map((p) => p.y)));
  const step = 10 ** Math.floor(Math.log10(ymax / 4));
  const tick = [1, 2, 5, 10].map((k) => k * step).find((t) => ymax / t <= 6) ?? 10 * step;
  const top = Math.ceil(ymax / tick) * tick;
  const X = (v: number): number => L + ((Math.log2(v) - x0) / (x1 - x0 || 1)) * (W - L - R);
  const Y = (v: number): number => H - B - (v / top) * (H - T - B);
  const out: string[] = [];
  out.push(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="sans-serif" font-size="12">`,
  );
  out.push(`<rect width="${W}" height="${H}" fill="white"/>`);
  out.push(`<text x="${L}" y="22" font-size="14" font-weight="bold">Loopback bandwidth vs message size (MB/s)</text>`);
  out.push(`<text x="${L}" y="${H - 10}" fill="#555">${caption.replace(/&/g, '&amp;').replace(/</g, '&lt;')}</text>`);
  for (let v = 0; v <= top + 1e-9; v += tick) {
    out.push(`<line x1="${L}" x2="${W - R}" y1="${Y(v).toFixed(1)}" y2="${Y(v).toFixed(1)}" stroke="#e5e5e5"/>`);
    out.push(`<text x="${L - 6}" y="${(Y(v) + 4).toFixed(1)}" text-anchor="end">${Math.round(v)}</text>`);
  }
  for (const x of xs) {
    out.push(`<line x1="${X(x).toFixed(1)}" x2="${X(x).toFixed(1)}" y1="${T}" y2="${H - B}" stroke="#f0f0f0"/>`);
    out.push(`<text x="${X(x).toFixed(1)}" y="${H - B + 16}" text-anchor="middle">${sizeLabel(x)}</text>`);
  }
  out.push(
    `<text x="${((L + W - R) / 2).toFixed(0)}" y="${H - B + 32}" text-anchor="middle" fill="#555">message size (octets, log scale)</text>`,
  );
  out.push(
    `<line x1="${L}" x2="${L}" y1="${T}" y2="${H - B}" stroke="#888"/><line x1="${L}" x2="${W - R}" y1="${H - B}" y2="${H - B}" stroke="#888"/>`,
  );
  for (const [i, s] of pts.entries()) {
    const d = s.data.map((p, j) => `${j ? 'L' : 'M'}${X(p.x).toFixed(1)},${Y(p.y).toFixed(1)}`).join(' ');
    const dash = s.dash ? ` stroke-dasharray="${s.dash}"` : '';
    out.push(`<path d="${d}" fill="none" stroke="${s.color}" stroke-width="2"${dash}/>`);
    for (const p of s.data) out.push(`<circle cx="${X(p.x).toFixed(1)}" cy="${Y(p.y).toFixed(1)}" r="2.5" fill="${s.color}"/>`);
    const ly = T + 10 + i * 20;
    out.push(`<line x1="${W - R + 15}" x2="${W - R + 45}" y1="${ly}" y2="${ly}" stroke="${s.color}" stroke-width="2"${dash}/>`);
    out.push(`<text x="${W - R + 52}" y="${ly + 4}">${s.name}</text>`);
  }
  out.push('</svg>');
  return `${out.join('\n')}\n`;
}
