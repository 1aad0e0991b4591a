/**
 * What the manual's multicast and APM examples get on softrdma's iWARP device.
 *
 * - "mckey" (§8.3–8.4) and the rdma-verbs multicast example (§8.5.2) need UD QPs, address handles
 *   and multicast groups; iWARP (RC over TCP) has none of them. Their RDMA_PS_UDP ids exist (and
 *   rdma_cm puts them on the RoCE device, softroce0); here they are named to softrdma0
 *   (`rdmaUseDevice`), to show what the iWARP device answers.
 * - The APM example (§8.5.1) needs alternate paths and path migration, an InfiniBand notion (two
 *   HCA ports on one subnet in the manual).
 *
 * This program runs the calls those examples depend on, in the order they make them, and prints
 * what each returns and its errno (the values of `IWARP_UNSUPPORTED`, `src/verbs/errno.ts`).
 * The QPs the calls need are real: an RC connection over rdma_cm on loopback for APM. It exits
 * with 0 when every call failed exactly as documented.
 *
 *   node dist/examples/verbs/iwarp_unsupported.js
 */
import {
  EADDRNOTAVAIL,
  EINVAL,
  ENOSYS,
  EOPNOTSUPP,
  ERRNO_NAMES,
  getErrno,
  IBV_DEVICE_AUTO_PATH_MIG,
  IBV_MIG_MIGRATED,
  IBV_MIG_REARM,
  IBV_QP_ALT_PATH,
  IBV_QP_PATH_MIG_STATE,
  IBV_QPT_RC,
  IBV_QPT_UD,
  IWARP_UNSUPPORTED,
  type ibv_device_attr,
  type ibv_qp_attr,
  type ibv_qp_init_attr,
  RAI_PASSIVE,
  RDMA_PS_TCP,
  RDMA_PS_UDP,
  type rdma_cm_id,
  rdmaListenReady,
  rdmaUseDevice,
  verbs,
} from '../../src/verbs/index.js';
import { out } from './common.js';

const STRERROR: Record<number, string> = {
  [EOPNOTSUPP]: 'Operation not supported',
  [ENOSYS]: 'Function not implemented',
  [EADDRNOTAVAIL]: 'Cannot assign requested address',
  [EINVAL]: 'Invalid argument',
};

let mismatches = 0;

/** Prints one call's outcome and checks it against the documented errno. */
function report(call: string, ret: string, want: number): void {
  const e = getErrno();
  const ok = e === want;
  if (!ok) mismatches++;
  out(`  ${call} -> ${ret}, errno ${ERRNO_NAMES[e] ?? e} (${STRERROR[e] ?? '?'})${ok ? '' : `  [expected ${ERRNO_NAMES[want]}]`}`);
}

const CAP = { max_send_wr: 10, max_recv_wr: 10, max_send_sge: 1, max_recv_sge: 1 };

/** rdma_cm's context of softrdma0, the iWARP device. */
function iwarpContext() {
  return verbs.rdma_get_devices()!.find((c) => c.device.name === 'softrdma0')!;
}

async function mckey(): Promise<void> {
  out('mckey (manual 8.3-8.4): UD QPs joined to a multicast group through rdma_cm');
  const channel = verbs.rdma_create_event_channel()!;
  // alloc_nodes(): one id per connection, in the port space given by -p (RDMA_PS_UDP by default).
  const r = verbs.rdma_create_id(channel, null, RDMA_PS_UDP);
  out(`  rdma_create_id(channel, &id, node, RDMA_PS_UDP) -> ${r.ret} (the id exists on every device)`);
  const id = r.id!;
  rdmaUseDevice(id, iwarpContext());
  out('  rdmaUseDevice(id, softrdma0) -> 0');
  await verbs.rdma_resolve_addr(id, null, { family: 'ipv4', address: '127.0.0.1', port: 0 }, 2000);
  verbs.rdma_ack_cm_event((await verbs.rdma_get_cm_event(channel)).event!);
  const pd = verbs.ibv_alloc_pd(id.verbs!)!;
  const cq = verbs.ibv_create_cq(id.verbs!, 20, null, null, 0)!;
  const ud = { qp_type: IBV_QPT_UD, send_cq: cq, recv_cq: cq, cap: CAP };
  report(
    'rdma_create_qp(id, pd, { qp_type: IBV_QPT_UD })',
    String(verbs.rdma_create_qp(id, pd, ud)),
    IWARP_UNSUPPORTED['rdma_create_qp:IBV_QPT_UD']!,
  );
  report('ibv_create_qp(pd, { qp_type: IBV_QPT_UD })', String(verbs.ibv_create_qp(pd, ud)), EOPNOTSUPP);
  await verbs.rdma_resolve_route(id, 2000);
  verbs.rdma_ack_cm_event((await verbs.rdma_get_cm_event(channel)).event!);
  report(
    'rdma_connect(id, &conn_param) [RDMA_PS_UDP]',
    String(await verbs.rdma_connect(id, null)),
    IWARP_UNSUPPORTED['rdma_connect:RDMA_PS_UDP']!,
  );
  report(
    'rdma_join_multicast(id, 239.1.1.1, node)',
    String(await verbs.rdma_join_multicast(id, { family: 'ipv4', address: '239.1.1.1', port: 0 }, null)),
    ENOSYS,
  );
  // join_handler(): the address handle for the group.
  report('ibv_create_ah(pd, &param.ud.ah_attr)', String(verbs.ibv_create_ah(pd, { is_global: 1, port_num: 1 })), EOPNOTSUPP);
  report(
    'rdma_leave_multicast(id, 239.1.1.1)',
    String(verbs.rdma_leave_multicast(id, { family: 'ipv4', address: '239.1.1.1', port: 0 })),
    EADDRNOTAVAIL,
  );
  verbs.ibv_destroy_cq(cq);
  verbs.ibv_dealloc_pd(pd);
  verbs.rdma_destroy_id(id);
  verbs.rdma_destroy_event_channel(channel);
}

async function mcRdmaVerbs(): Promise<void> {
  out('multicast with rdma verbs (manual 8.5.2): one UD id, rdma_join_multicast, rdma_post_ud_send');
  const g = await verbs.rdma_getaddrinfo('239.1.1.1', null, { ai_port_space: RDMA_PS_UDP });
  const channel = verbs.rdma_create_event_channel()!;
  const r = verbs.rdma_create_id(channel, null, RDMA_PS_UDP);
  out(`  rdma_create_id(channel, &id, NULL, RDMA_PS_UDP) -> ${r.ret}`);
  const id = r.id!;
  rdmaUseDevice(id, iwarpContext());
  await verbs.rdma_resolve_addr(id, null, g.res!.ai_dst_addr!, 2000);
  verbs.rdma_ack_cm_event((await verbs.rdma_get_cm_event(channel)).event!);
  report('rdma_join_multicast(id, &mcast_sockaddr, NULL)', String(await verbs.rdma_join_multicast(id, g.res!.ai_dst_addr!, null)), ENOSYS);
  const buf = new Uint8Array(100);
  const mr = verbs.rdma_reg_msgs(id, buf, buf.length)!;
  report(
    'rdma_post_ud_send(id, NULL, buf, len, mr, IBV_SEND_SIGNALED, ah, remote_qpn)',
    String(verbs.rdma_post_ud_send(id, null, buf, buf.length, mr, 2, null as never, 0xffffff)),
    EOPNOTSUPP,
  );
  verbs.rdma_dereg_mr(mr);
  verbs.rdma_destroy_id(id);
  verbs.rdma_destroy_event_channel(channel);
  verbs.rdma_freeaddrinfo(g.res!);
}

async function apm(): Promise<void> {
  out('APM (manual 8.5.1): alternate path loaded on a connected RC QP, then a forced migration');
  // get_alt_port_details(): the device capability and a second active port.
  const list = verbs.ibv_get_device_list()!;
  const ctx = verbs.ibv_open_device(list[0]!)!;
  verbs.ibv_free_device_list(list);
  const attr = {} as ibv_device_attr;
  verbs.ibv_query_device(ctx, attr);
  const apmCap = (attr.device_cap_flags & IBV_DEVICE_AUTO_PATH_MIG) !== 0;
  out(`  ibv_query_device: device_cap_flags & IBV_DEVICE_AUTO_PATH_MIG = ${apmCap ? 1 : 0}, phys_port_cnt = ${attr.phys_port_cnt}`);
  if (!apmCap) out('  device does not support auto path migration!');
  else mismatches++;
  verbs.ibv_close_device(ctx);

  // The example's connection: synchronous endpoints over rdma_cm (as its establish_connection).
  const qp_attr: Partial<ibv_qp_init_attr> = {
    qp_type: IBV_QPT_RC,
    cap: { max_send_wr: 1, max_recv_wr: 1, max_send_sge: 1, max_recv_sge: 1, max_inline_data: 0 },
  };
  const srvInfo = (await verbs.rdma_getaddrinfo('127.0.0.1', '0', { ai_port_space: RDMA_PS_TCP, ai_flags: RAI_PASSIVE })).res!;
  const listen = (await verbs.rdma_create_ep(srvInfo, null, qp_attr)).id!;
  verbs.rdma_listen(listen, 4);
  await rdmaListenReady(listen);
  const port = verbs.rdma_get_src_port(listen);
  const cliInfo = (await verbs.rdma_getaddrinfo('127.0.0.1', String(port), { ai_port_space: RDMA_PS_TCP })).res!;
  const client = (await verbs.rdma_create_ep(cliInfo, null, qp_attr)).id!;
  const connecting = verbs.rdma_connect(client, { responder_resources: 2, initiator_depth: 2, retry_count: 5, rnr_retry_count: 5 });
  const server = (await verbs.rdma_get_request(listen)).id as rdma_cm_id;
  if ((await verbs.rdma_accept(server, { responder_resources: 2, initiator_depth: 2 })) !== 0) {
    // A failed accept rejects: the client is told at once.
    verbs.rdma_reject(server, null);
    throw new Error(`rdma_accept: errno ${verbs.getErrno()}`);
  }
  if ((await connecting) !== 0) throw new Error(`rdma_connect: errno ${verbs.getErrno()}`);
  // load_alt_path(): query the QP, copy its path as the alternate, arm migration.
  const qa = {} as ibv_qp_attr;
  verbs.ibv_query_qp(client.qp!, qa, 0, {} as ibv_qp_init_attr);
  const alt = {
    alt_ah_attr: qa.ah_attr,
    alt_pkey_index: qa.pkey_index,
    alt_timeout: qa.timeout,
    alt_port_num: 1,
    path_mig_state: IBV_MIG_REARM,
  };
  report(
    'ibv_modify_qp(qp, alt path, IBV_QP_ALT_PATH | IBV_QP_PATH_MIG_STATE)',
    String(verbs.ibv_modify_qp(client.qp!, alt, IBV_QP_ALT_PATH | IBV_QP_PATH_MIG_STATE)),
    EOPNOTSUPP,
  );
  // The client's manual migration after -m iterations.
  report(
    'ibv_modify_qp(qp, { path_mig_state: IBV_MIG_MIGRATED }, IBV_QP_PATH_MIG_STATE)',
    String(verbs.ibv_modify_qp(client.qp!, { path_mig_state: IBV_MIG_MIGRATED }, IBV_QP_PATH_MIG_STATE)),
    EOPNOTSUPP,
  );
  await verbs.rdma_disconnect(client);
  for (const id of [client, server, listen]) verbs.rdma_destroy_ep(id);
  verbs.rdma_freeaddrinfo(srvInfo);
  verbs.rdma_freeaddrinfo(cliInfo);
}

async function main(): Promise<number> {
  out('softrdma device: iWARP (IBV_TRANSPORT_IWARP): RC QPs only; these examples need RoCEv2 (or InfiniBand).');
  out('');
  await mckey();
  out('');
  await mcRdmaVerbs();
  out('');
  await apm();
  out('');
  out(mismatches === 0 ? 'every call failed as documented (IWARP_UNSUPPORTED)' : `${mismatches} call(s) did not fail as documented`);
  return mismatches === 0 ? 0 : 1;
}

main().then(
  (rc) => {
    process.exitCode = rc;
  },
  (e: unknown) => {
    process.stderr.write(`${String((e as Error)?.stack ?? e)}\n`);
    process.exitCode = 1;
  },
);
