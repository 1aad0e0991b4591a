/**
 * The identifiers a spoofer would need: softroce0's node GUID is stable per host and device (the
 * same in two processes, with no process ID in it) and is the one `ri_rnic_query` reports; QPNs
 * and starting PSNs are drawn at random, so they differ between runs.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';
import { eui64OfMac, SOFTRDMA_VENDOR_ID, SOFTRDMA_VENDOR_PART_ID } from '../../src/provider/identity.js';
import { roceConfig } from '../../src/provider/softrdma.js';
import { ok, openRnic } from '../conformance/helpers.js';
import { type ibv_device_attr, verbs as v } from '../../src/verbs/index.js';

const verbsUrl = new URL('../../src/verbs/index.js', import.meta.url).href;
const rdmaIpUrl = new URL('../../src/ibcm/rdma-ip.js', import.meta.url).href;

/** One process: its PID, softroce0's GUID, the QPN of its first RC QP and a starting PSN. */
function run(): { pid: number; guid: string; qpn: number; psn: number } {
  const script = `
    const { verbs: v, IBV_QPT_RC } = await import(${JSON.stringify(verbsUrl)});
    const { randomPsn } = await import(${JSON.stringify(rdmaIpUrl)});
    const dev = v.ibv_get_device_list().find((d) => d.name === 'softroce0');
    const ctx = v.ibv_open_device(dev);
    const pd = v.ibv_alloc_pd(ctx);
    const cq = v.ibv_create_cq(ctx, 4, null, null, 0);
    const qp = v.ibv_create_qp(pd, { qp_type: IBV_QPT_RC, send_cq: cq, recv_cq: cq, cap: { max_send_wr: 1, max_recv_wr: 1, max_send_sge: 1, max_recv_sge: 1, max_inline_data: 0 } });
    console.log(JSON.stringify({ pid: process.pid, guid: v.ibv_get_device_guid(dev).toString(16), qpn: qp.qp_num, psn: randomPsn() }));
    process.exit(0);
  `;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout.trim().split('\n').pop()!);
}

test('softroce0: the node GUID is the same in two processes and carries no process ID; QPNs and PSNs differ between runs', () => {
  const [a, b] = [run(), run()];
  assert.notEqual(a.pid, b.pid);
  assert.equal(a.guid, b.guid, 'the node GUID depends on the process');
  for (const p of [a, b]) {
    const pid = [(p.pid >>> 16) & 0xff, (p.pid >>> 8) & 0xff, p.pid & 0xff].map((x) => x.toString(16).padStart(2, '0')).join('');
    assert.ok(!p.guid.padStart(16, '0').endsWith(pid), `the PID ${p.pid} is in the GUID ${p.guid}`);
  }
  assert.notEqual(a.qpn, b.qpn, 'both runs drew the same first QPN');
  for (const q of [a.qpn, b.qpn]) assert.ok(q > 1 && q < 0xff_ffff && q !== 17, `QPN ${q}`);
  assert.notEqual(a.psn, b.psn, 'both runs drew the same starting PSN');
});

test('softroce0: ibv_get_device_guid and ibv_query_device (from ri_rnic_query) report one node GUID, the EUI-64 of the device MAC', () => {
  const dev = v.ibv_get_device_list()!.find((d) => d.name === 'softroce0')!;
  const ctx = v.ibv_open_device(dev)!;
  const a = {} as ibv_device_attr;
  assert.equal(v.ibv_query_device(ctx, a), 0);
  assert.equal(a.node_guid, v.ibv_get_device_guid(dev));
  assert.equal(a.node_guid, eui64OfMac((dev as unknown as { mac: Uint8Array }).mac));
  assert.equal(v.ibv_close_device(ctx), 0);
});

test('the vendor: ri_rnic_query reports it on both transports, and ibv_query_device reports what ri_rnic_query does', () => {
  for (const config of [undefined, roceConfig(undefined, 0)]) {
    const env = openRnic(config ? { config } : {});
    const a = ok(env.ops.ri_rnic_query(env.rnic, 0, 1 << 20)).attrs;
    assert.deepEqual([a.vendor_id, a.vendor_part_id], [SOFTRDMA_VENDOR_ID, SOFTRDMA_VENDOR_PART_ID]);
    env.close();
  }
  assert.notEqual(SOFTRDMA_VENDOR_ID, 0);
  for (const dev of v.ibv_get_device_list()!) {
    const ctx = v.ibv_open_device(dev)!;
    const a = {} as ibv_device_attr;
    assert.equal(v.ibv_query_device(ctx, a), 0);
    assert.deepEqual(
      [a.vendor_id, a.vendor_part_id],
      [SOFTRDMA_VENDOR_ID, SOFTRDMA_VENDOR_PART_ID],
      v.ibv_get_device_name(dev) ?? undefined,
    );
    assert.equal(v.ibv_close_device(ctx), 0);
  }
});
