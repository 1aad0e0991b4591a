/**
 * `softrdma stat` (iproute2's `rdma statistic`): the RoCEv2 counters of every running softrdma
 * process, by Linux rxe's `hw_counters` names, per device (`show link`) or per QP (`qp`). Each
 * process publishes its own (see the provider's `countersDir`; docs/spec-notes.md "RoCE
 * counters"), since `softrdma stat` is another process.
 */
import { countersDir, type PublishedCounters, ROCE_COUNTERS, readPublishedCounters } from '../provider/softrdma.js';
import type { CliIo } from './cli.js';
import { command, parseCommand } from './spec.js';

export function statCmd(argv: readonly string[], io: CliIo): number {
  const { values: v, positionals } = parseCommand(command('stat')!, argv);
  const values = v as { dev?: string; json?: boolean };
  const words = [...positionals];
  const perQp = words[0] === 'qp';
  if (perQp) words.shift();
  if (words[0] === 'show' || words[0] === 'list') words.shift();
  if (!perQp && words[0] === 'link') words.shift();
  if (words.length > 1) {
    io.err(`softrdma stat: unexpected argument '${words[1]}'\n`);
    return 2;
  }
  const [posDev, portText] = (words[0] ?? '').split('/');
  const dev = values.dev ?? (posDev || undefined);
  if (portText !== undefined && portText !== '1') {
    io.err('Wrong port number\n');
    return 1;
  }
  const recs = readPublishedCounters().filter((r: PublishedCounters) => !dev || r.device === dev);
  if (perQp) {
    const rows = recs.flatMap((r) =>
      r.qps.map((q) => ({ ifname: r.device, port: r.port, pid: r.pid, comm: r.comm, lqpn: q.lqpn, 'qp-type': q.type, ...q.counters })),
    );
    if (values.json) io.out(`${JSON.stringify(rows)}\n`);
    else
      for (const q of rows)
        io.out(`link ${q.ifname}/${q.port} lqpn ${q.lqpn} qp-type ${q['qp-type']} pid ${q.pid} comm ${q.comm} ${values_(q)}\n`);
  } else {
    const rows = recs.map((r) => ({ ifname: r.device, port: r.port, pid: r.pid, comm: r.comm, ...r.counters }));
    if (values.json) io.out(`${JSON.stringify(rows)}\n`);
    else for (const r of rows) io.out(`link ${r.ifname}/${r.port} pid ${r.pid} comm ${r.comm} ${values_(r)}\n`);
  }
  if (recs.length === 0 && !values.json)
    io.err(`softrdma stat: no running softrdma process has RoCE counters${dev ? ` on ${dev}` : ''} (in ${countersDir()})\n`);
  return 0;
}

/** `name value` pairs in the counters' order. */
function values_(row: Record<string, unknown>): string {
  return ROCE_COUNTERS.map(([n]) => `${n} ${row[n] ?? 0}`).join(' ');
}
