/**
 * Interop over IPv6: softrdma's RoCEv2 device (`softroce0`) against Linux rxe (6.1) in the
 * kernel-peer guest, every RoCEv2 datagram between two ULA addresses (RoCE v2 GIDs of IPv6
 * addresses, the IPv6 header in the ICRC):
 *
 *   V1. guest `ibv_rc_pingpong -g <fd77::2's index>` client → `softrdma pingpong rc -g 2` server
 *   V2. `softrdma pingpong rc -g 2` client → guest `ibv_rc_pingpong` server
 *   V3. guest `rping -c -a fd77::1` → `softrdma rping -s -a fd77::1` (rdma_cm over the IB CM,
 *       IPv6 addresses, path records with IPv6 GIDs)
 *   V4. `softrdma rping -c -a fd77::2` → guest `rping -s -a fd77::2`
 *   V5. `softrdma perf write -x 2` client → guest `ib_write_bw -x <index>` server
 *   V6. guest `ib_write_bw -x <index>` client → `softrdma perf write --server -x 2`
 *
 * perftest's `-R` cannot run over IPv6 at all: its rdma_cm server binds an AF_INET address
 * and its client resolves the server's name as AF_INET, so V5/V6 connect with perftest's TCP
 * exchange (over IPv4) and carry the RoCEv2 traffic on the IPv6 GIDs, as `-x` selects them.
 * pingpong's TCP exchange also runs over IPv4; its GIDs are the IPv6 ones.
 *
 * Host side: netns `rdmapeer`, the bridge gets `fd77::1/64` (nodad) for the run;
 * `SOFTRDMA_ROCE_ADDRS=127.0.0.1,192.168.77.1,fd77::1` makes our GID index 2 that address.
 * The guest adds `fd77::2/64` (nodad) to eth0 before anything runs; rxe adds its GID, whose
 * index the guest script reads from sysfs. Every case captures softrdma's traffic
 * (`SOFTRDMA_PCAP`): tshark decodes it as RRoCE with no malformed packet, and every RoCEv2
 * frame of it is IPv6.
 */
import { retryOnce } from '../helpers/retry.js';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { cli, GUEST_IP, HOST_IP, harness, hasTshark, host, kill, pcapDir, pings, run, show, wireCheckRoce, section } from './harness.js';
import { GUEST_CLIENT, hostClient } from './rxe-harness.js';

const h = harness();
const opts = { skip: 'skip' in h ? h.skip : false, timeout: 1_200_000 };
const HOST6 = 'fd77::1';
const GUEST6 = 'fd77::2';
/** Our GID table in the netns: index 2 is the bridge's IPv6 address. */
const ENV = { SOFTRDMA_ROCE_ADDRS: `127.0.0.1,${HOST_IP},${HOST6}` };
const OUR_GID = '2';
const COUNT = 100;

/** The guest's helpers (as the rxe suite's): clients retry while the host side does not listen yet. */
const GUEST = [
  'ulimit -l unlimited',
  `ip -6 addr add ${GUEST6}/64 dev eth0 nodad`,
  'sleep 2',
  'GIDX=""',
  'for f in /sys/class/infiniband/rxe0/ports/1/gids/*; do [ "$(cat $f)" = fd77:0000:0000:0000:0000:0000:0000:0002 ] && GIDX=$(basename $f); done',
  'echo "GIDX $GIDX"',
  GUEST_CLIENT,
  'echo KP_READY',
].join('\n');

/** tshark: RoCEv2 frames of the captures by IP version. */
function framesByIpVersion(dir: string): { v4: number; v6: number } {
  let v4 = 0;
  let v6 = 0;
  for (const f of readdirSync(dir).filter((n) => n.endsWith('.pcap'))) {
    const r = spawnSync(
      'tshark',
      ['-r', join(dir, f), '-Y', 'udp.port == 4791', '-T', 'fields', '-e', 'ip.version', '-e', 'ipv6.version'],
      { encoding: 'utf8', maxBuffer: 256 << 20 },
    );
    for (const l of r.stdout.split('\n')) {
      if (l.startsWith('4')) v4++;
      else if (l.includes('6')) v6++;
    }
  }
  return { v4, v6 };
}

test('interop V: RoCEv2 over IPv6 against Linux rxe, both roles: ibv_rc_pingpong -g, rping -a <IPv6>, ib_write_bw -x', opts, async () => {
  if ('skip' in h) return;
  assert.ok(existsSync(cli), `${cli} missing: npx tsc -p .`);
  await retryOnce('V', async () => {
    const pcap = pcapDir('V');
    const env = { ...ENV, SOFTRDMA_PCAP: pcap };
    spawnSync(join(h.dir, 'host-exec.sh'), ['--status'], { encoding: 'utf8' });
    const add = spawnSync(join(h.dir, 'host-exec.sh'), ['ip', '-6', 'addr', 'replace', `${HOST6}/64`, 'dev', 'kpbr0', 'nodad'], {
      encoding: 'utf8',
    });
    assert.equal(add.status, 0, `adding ${HOST6} to the bridge: ${add.stderr}`);
    const pp = ['-n', '200', '-c'];
    const wb = ['-s', '65536', '-n', '200', '-F'];
    const script = [
      GUEST,
      'sleep 3',
      `client pp_gc ibv_rc_pingpong -d rxe0 -g $GIDX -p 18800 ${pp.join(' ')} ${HOST_IP}`,
      `server pp_gs ibv_rc_pingpong -d rxe0 -g $GIDX -p 18801 ${pp.join(' ')}`,
      `echo "WAIT rp_gc"; sleep 8; echo "BEGIN rp_gc"; rping -c -a ${HOST6} -p 7490 -C ${COUNT} -V -v 2>&1; echo "END rp_gc rc=$?"`,
      `server rp_gs rping -s -a ${GUEST6} -p 7491 -C ${COUNT} -V -v`,
      `server wb_gs ib_write_bw -d rxe0 -x $GIDX ${wb.join(' ')} -p 18802`,
      `sleep 3; client wb_gc ib_write_bw -d rxe0 -x $GIDX ${wb.join(' ')} -p 18803 ${HOST_IP}`,
    ].join('\n');
    const guest = run(join(h.dir, 'run-guest.sh'), ['-l', 'rxe', '-t', '900', script], h.dir);
    const r: Record<string, { rc: number; lines: string[] }> = {};
    let guestRc = -1;
    try {
      assert.ok(await guest.wait(/KP_READY/, 120_000), `the guest did not boot:\n${guest.lines.join('\n')}`);
      r.pp_gc = await host(h.dir, ['pingpong', 'rc', '-g', OUR_GID, '-p', '18800', ...pp], 180_000, env);
      await guest.wait(/^END pp_gc rc=/, 60_000);
      assert.ok(await guest.wait(/^START pp_gs$/, 200_000), 'V: the guest did not start pp_gs');
      r.pp_gs = await hostClient(h.dir, ['pingpong', 'rc', '-g', OUR_GID, '-p', '18801', ...pp, GUEST_IP], env, 150_000);
      assert.ok(await guest.wait(/^WAIT rp_gc$/, 200_000), 'V: the guest did not reach rp_gc');
      r.rp_gc = await host(h.dir, ['rping', '-s', '-a', HOST6, '-p', '7490', '-C', String(COUNT), '-V'], 240_000, {
        ...env,
        SOFTRDMA_DEVICE: 'softroce0',
      });
      assert.ok(await guest.wait(/^START rp_gs$/, 200_000), 'V: the guest did not start rp_gs');
      r.rp_gs = await hostClient(
        h.dir,
        ['rping', '-c', '-a', GUEST6, '-p', '7491', '-C', String(COUNT), '-V', '-v'],
        { ...env, SOFTRDMA_DEVICE: 'softroce0' },
        150_000,
      );
      assert.ok(await guest.wait(/^START wb_gs$/, 200_000), 'V: the guest did not start wb_gs');
      r.wb_gs = await hostClient(
        h.dir,
        ['perf', 'write', '--bw', '-d', 'softroce0', '-x', OUR_GID, ...wb, '-p', '18802', GUEST_IP],
        env,
        150_000,
      );
      r.wb_gc = await host(
        h.dir,
        ['perf', 'write', '--bw', '--server', '-d', 'softroce0', '-x', OUR_GID, ...wb, '-p', '18803'],
        180_000,
        env,
      );
      const t = setTimeout(() => kill(guest), 60_000);
      guestRc = await guest.done;
      clearTimeout(t);
    } finally {
      kill(guest);
      spawnSync(join(h.dir, 'host-exec.sh'), ['ip', '-6', 'addr', 'del', `${HOST6}/64`, 'dev', 'kpbr0'], { encoding: 'utf8' });
      show(
        `guest (run-guest.sh rc ${guestRc})`,
        'guest',
        guest.lines.filter((l) => !/^(BEGIN|END|START|WAIT)|ping data: /.test(l)).slice(0, 30),
      );
    }
    const failures: string[] = [];
    const gidx = guest.lines.find((l) => l.startsWith('GIDX '));
    console.log(`[guest] rxe0 ${gidx ?? 'GIDX ?'} (the index of ${GUEST6})`);
    if (!gidx || gidx === 'GIDX ') failures.push(`the guest's rxe0 has no GID for ${GUEST6}`);
    const ppLine = /^\d+ bytes in \d+\.\d+ seconds = [\d.]+ Mbit\/sec$|^\d+ iters in \d+\.\d+ seconds = [\d.]+ usec\/iter$/;
    for (const tag of ['pp_gc', 'pp_gs']) {
      const o = r[tag] ?? { rc: -1, lines: [] };
      const g = section(guest.lines, tag);
      console.log(
        `---- ${tag}: ibv_rc_pingpong ${tag === 'pp_gc' ? 'guest client → softrdma server' : 'softrdma client → guest server'}: softrdma rc=${o.rc}, guest rc=${g.rc} ----`,
      );
      for (const l of o.lines.filter((l) => /address|bytes in|iters in/.test(l))) console.log(`[host ] ${l}`);
      for (const l of g.lines.filter((l) => /address|bytes in|iters in/.test(l))) console.log(`[guest] ${l}`);
      if (o.rc !== 0 || g.rc !== 0) show(`${tag} output`, 'host', o.lines.slice(0, 30));
      if (o.rc !== 0) failures.push(`${tag}: softrdma pingpong exit status ${o.rc}`);
      if (g.rc !== 0) failures.push(`${tag}: guest ibv_rc_pingpong exit status ${g.rc}`);
      if (o.lines.filter((l) => ppLine.test(l)).length < 2) failures.push(`${tag}: softrdma printed no result lines`);
      if (!o.lines.some((l) => /remote address: .*GID fd77::2$/.test(l))) failures.push(`${tag}: softrdma's remote GID is not ${GUEST6}`);
      if (!o.lines.some((l) => /local address: .*GID fd77::1$/.test(l))) failures.push(`${tag}: softrdma's local GID is not ${HOST6}`);
      if ([...o.lines, ...g.lines].some((l) => /invalid data/.test(l))) failures.push(`${tag}: invalid data (-c)`);
    }
    {
      const g = section(guest.lines, 'rp_gc');
      const o = r.rp_gc ?? { rc: -1, lines: [] };
      const p = pings(g.lines);
      console.log(
        `---- rp_gc: guest rping -c -a ${HOST6} → softrdma rping -s: guest rc=${g.rc}, ${p.n} ping lines; softrdma rc=${o.rc} ----`,
      );
      for (const l of p.ends) console.log(`[guest] ${l}`);
      if (g.rc !== 0 || o.rc !== 0) show('rp_gc softrdma rping -s output', 'host', o.lines.slice(0, 20));
      if (p.n !== COUNT) failures.push(`rp_gc: the guest rping -c printed ${p.n} of ${COUNT} ping data lines`);
      if (g.rc !== 0) failures.push(`rp_gc: guest rping -c exit status ${g.rc}`);
      if (o.rc !== 0) failures.push(`rp_gc: softrdma rping -s exit status ${o.rc}`);
    }
    {
      const g = section(guest.lines, 'rp_gs');
      const o = r.rp_gs ?? { rc: -1, lines: [] };
      const p = pings(o.lines);
      const gp = pings(g.lines);
      console.log(
        `---- rp_gs: softrdma rping -c -a ${GUEST6} → guest rping -s: softrdma rc=${o.rc}, ${p.n} ping lines; guest rc=${g.rc}, ${gp.n} ping lines ----`,
      );
      for (const l of p.ends) console.log(`[host ] ${l}`);
      for (const l of gp.ends) console.log(`[guest] ${l}`);
      if (g.rc !== 0 || o.rc !== 0)
        show('rp_gs softrdma rping -c output', 'host', o.lines.filter((l) => !/ping data: /.test(l)).slice(0, 20));
      if (p.n !== COUNT) failures.push(`rp_gs: softrdma rping -c printed ${p.n} of ${COUNT} ping data lines`);
      if (gp.n !== COUNT) failures.push(`rp_gs: the guest rping -s printed ${gp.n} of ${COUNT} ping data lines`);
      if (g.rc !== 0) failures.push(`rp_gs: guest rping -s exit status ${g.rc}`);
      if (o.rc !== 0) failures.push(`rp_gs: softrdma rping -c exit status ${o.rc}`);
    }
    const row = /^\s*65536\s+200\s/;
    for (const tag of ['wb_gs', 'wb_gc']) {
      const o = r[tag] ?? { rc: -1, lines: [] };
      const g = section(guest.lines, tag);
      console.log(
        `---- ${tag}: ib_write_bw -x ${tag === 'wb_gs' ? 'softrdma client → guest server' : 'guest client → softrdma server'}: softrdma rc=${o.rc}, guest rc=${g.rc} ----`,
      );
      for (const l of o.lines.filter((l) => /GID:|remote address|local address/.test(l)).slice(0, 4)) console.log(`[host ] ${l.trim()}`);
      for (const l of o.lines.filter((l) => row.test(l))) console.log(`[host ] ${l}`);
      for (const l of g.lines.filter((l) => /GID:/.test(l)).slice(0, 2)) console.log(`[guest] ${l.trim()}`);
      for (const l of g.lines.filter((l) => row.test(l))) console.log(`[guest] ${l}`);
      if (o.rc !== 0 || g.rc !== 0) {
        show(`${tag} softrdma perf output`, 'host', o.lines.slice(0, 40));
        show(`${tag} guest ib_write_bw output`, 'guest', g.lines.slice(0, 40));
      }
      if (o.rc !== 0) failures.push(`${tag}: softrdma perf exit status ${o.rc}`);
      if (g.rc !== 0) failures.push(`${tag}: guest ib_write_bw exit status ${g.rc}`);
      if (!o.lines.some((l) => row.test(l))) failures.push(`${tag}: softrdma printed no result row`);
      if (!g.lines.some((l) => row.test(l))) failures.push(`${tag}: the guest printed no result row`);
    }
    const w = wireCheckRoce(pcap);
    console.log(`---- V: tshark on softrdma's RoCEv2 pcaps (${pcap}) ----`);
    for (const l of w.summary) console.log(`[tshark] ${l}`);
    failures.push(...w.failures.map((f) => `V wire: ${f}`));
    if (hasTshark) {
      const n = framesByIpVersion(pcap);
      console.log(`[tshark] RoCEv2 frames: ${n.v6} over IPv6, ${n.v4} over IPv4`);
      if (n.v6 === 0) failures.push('V wire: no RoCEv2 frame over IPv6');
      if (n.v4 !== 0) failures.push(`V wire: ${n.v4} RoCEv2 frames over IPv4`);
    }
    assert.deepEqual(failures, [], `V: ${failures.join('; ')}`);
  });
});
