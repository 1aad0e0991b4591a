/**
 * Getting started with softrdma's IT-API 2.1 face (docs/getting-started.md): one process, both
 * ends of an RC connection over loopback. The server listens on a connection qualifier (a TCP
 * port), the client connects; the client Sends "hello" into the server's posted Receive and
 * RDMA-Writes into the server's LMR; both wait on their Event Dispatchers; everything is freed.
 *
 *   node dist/examples/getting-started/itapi.js
 */
import {
  IT_ADDR_MODE_ABSOLUTE,
  IT_CM_MSG_CONN_DISCONNECT_EVENT,
  IT_CM_MSG_CONN_ESTABLISHED_EVENT,
  IT_CM_MSG_EVENT_STREAM,
  IT_CM_REQ_CONN_REQUEST_EVENT,
  IT_CM_REQ_EVENT_STREAM,
  IT_COMPLETION_FLAG,
  IT_CONNECT_FLAG_TWO_WAY,
  IT_DTO_EVENT_STREAM,
  IT_DTO_RC_RECV_CMPL_EVENT,
  IT_DTO_RDMA_WRITE_CMPL_EVENT,
  IT_DTO_SEND_CMPL_EVENT,
  IT_DTO_SUCCESS,
  IT_EVD_OVERFLOW_DEFAULT,
  IT_IANA_PORT,
  IT_IPV4,
  IT_LISTEN_NO_FLAG,
  IT_NOTIFY_FLAG,
  IT_PRIV_LOCAL,
  IT_PRIV_REMOTE_WRITE,
  IT_SUCCESS,
  it_ep_accept,
  it_ep_connect,
  it_ep_disconnect,
  it_ep_rc_create,
  it_event_type_t,
  it_evd_create,
  it_evd_wait,
  it_get_pathinfo,
  it_ia_create,
  it_ia_free,
  it_interface_list,
  it_listen_create,
  it_lmr_create,
  it_make_rdma_addr_absolute,
  it_post_rdma_write,
  it_post_recv,
  it_post_send,
  it_pz_create,
  itStatusName,
  type it_conn_request_event_t,
  type it_ep_attributes_t,
  type it_evd_flags_t,
  type it_evd_handle_t,
  type it_event_t,
  type it_lmr_flag_t,
} from '../../src/itapi/index.js';

const NO_EVD_FLAGS = 0 as it_evd_flags_t;
const NO_LMR_FLAGS = 0 as it_lmr_flag_t;

/** Waits (up to 10 s) for the next Event of `evd`, which must be number `want`. */
async function expectEvent(evd: it_evd_handle_t, want: it_event_type_t): Promise<it_event_t> {
  const r = await it_evd_wait(evd, 10_000_000n);
  if (r.status !== IT_SUCCESS) throw new Error(`no ${it_event_type_t[want]}: ${itStatusName(r.status)}`);
  // r narrows to the success outcome here, so r.event is known to exist.
  const ev = r.event;
  if (ev.event_number !== want) throw new Error(`expected ${it_event_type_t[want]}, got ${it_event_type_t[ev.event_number]}`);
  if ('dto_status' in ev && ev.dto_status !== IT_DTO_SUCCESS) throw new Error(`${it_event_type_t[want]} with status ${ev.dto_status}`);
  return ev;
}

/** Endpoint attributes: a few DTOs, RDMA Write allowed into this Endpoint's memory. */
function epAttrs(): it_ep_attributes_t {
  return {
    max_dto_payload_size: 1 << 16,
    max_request_dtos: 4,
    max_recv_dtos: 4,
    max_send_segments: 1,
    max_recv_segments: 1,
    priv_ops_enable: false,
    srv: {
      rc: {
        rdma_read_enable: false,
        rdma_write_enable: true,
        max_rdma_read_segments: 1,
        max_rdma_write_segments: 1,
        rdma_read_ird: 0,
        rdma_read_ord: 0,
        srq: null,
        soft_hi_watermark: 0,
        hard_hi_watermark: 0,
        atomics_enable: false,
      },
    },
  };
}

async function main(): Promise<void> {
  // 1. Open the Interface Adapter (softrdma's iWARP RNIC) and make a Protection Zone.
  const name = it_interface_list(1).interfaces[0]?.name;
  if (!name) throw new Error('no IT-API interface');
  const ia = it_ia_create(name, 2, 1);
  try {
    const pz = it_pz_create(ia);
    const evd = (stream: Parameters<typeof it_evd_create>[1], n: number) =>
      it_evd_create(ia, stream, stream === IT_CM_MSG_EVENT_STREAM ? IT_EVD_OVERFLOW_DEFAULT : NO_EVD_FLAGS, n, 1, null).evd_handle;

    // 2. The server listens on any free port (connection qualifier 0 → assigned).
    const creq = evd(IT_CM_REQ_EVENT_STREAM, 4);
    const listen = it_listen_create(ia, 0, creq, IT_LISTEN_NO_FLAG, { type: IT_IANA_PORT, conn_qual: { port: 0 } });
    const port = 'port' in listen.conn_qual.conn_qual ? listen.conn_qual.conn_qual.port : 0;
    console.log(`server listening on port ${port}`);

    // 3. The client: an Endpoint with its own EVDs, a path to 127.0.0.1, connect.
    const cdto = evd(IT_DTO_EVENT_STREAM, 16);
    const ccm = evd(IT_CM_MSG_EVENT_STREAM, 4);
    const cep = it_ep_rc_create(pz, cdto, cdto, ccm, 0, epAttrs());
    const paths = await it_get_pathinfo(ia, 0, { addr_type: IT_IPV4, addr: { ipv4: '127.0.0.1' } }, 1);
    if (paths.status !== IT_SUCCESS || paths.paths.length === 0) throw new Error('no path to 127.0.0.1');
    it_ep_connect(cep, paths.paths[0]!, null, { type: IT_IANA_PORT, conn_qual: { port } }, IT_CONNECT_FLAG_TWO_WAY, null);

    // 4. The server takes the request: an Endpoint, its memory registered (an LMR; its rmr_context
    //    is what a remote peer writes with), a Receive posted, accept.
    const req = (await expectEvent(creq, IT_CM_REQ_CONN_REQUEST_EVENT)) as it_conn_request_event_t;
    const sdto = evd(IT_DTO_EVENT_STREAM, 16);
    const scm = evd(IT_CM_MSG_EVENT_STREAM, 4);
    const sep = it_ep_rc_create(pz, sdto, sdto, scm, 0, epAttrs());
    const serverBuf = new Uint8Array(64);
    const slmr = it_lmr_create(
      pz,
      serverBuf,
      null,
      serverBuf.length,
      IT_ADDR_MODE_ABSOLUTE,
      IT_PRIV_LOCAL | IT_PRIV_REMOTE_WRITE,
      NO_LMR_FLAGS,
      0,
    );
    const sbase = it_make_rdma_addr_absolute(serverBuf);
    it_post_recv(sep, [{ lmr: slmr.lmr_handle, addr: sbase, length: 32 }], 1n, IT_COMPLETION_FLAG | IT_NOTIFY_FLAG);
    it_ep_accept(sep, req.cn_est_id, null);
    await expectEvent(ccm, IT_CM_MSG_CONN_ESTABLISHED_EVENT);
    console.log('client connected');

    // 5. The client registers its buffer, Sends "hello" (on iWARP the passive side is established
    //    by the active side's first message) and RDMA-Writes into the server's LMR at offset 32.
    const clientBuf = new Uint8Array(64);
    const clmr = it_lmr_create(pz, clientBuf, null, clientBuf.length, IT_ADDR_MODE_ABSOLUTE, IT_PRIV_LOCAL, NO_LMR_FLAGS, 0).lmr_handle;
    const cbase = it_make_rdma_addr_absolute(clientBuf);
    clientBuf.set(new TextEncoder().encode('hello'));
    it_post_send(cep, [{ lmr: clmr, addr: cbase, length: 5 }], 10n, IT_COMPLETION_FLAG);
    const text = new TextEncoder().encode('written by RDMA Write');
    clientBuf.set(text, 32);
    it_post_rdma_write(
      cep,
      [{ lmr: clmr, addr: cbase + 32n, length: text.length }],
      11n,
      IT_COMPLETION_FLAG,
      sbase + 32n,
      slmr.rmr_context!,
    );

    // 6. Completions: the client's Send and Write, the server's establishment and Receive.
    await expectEvent(cdto, IT_DTO_SEND_CMPL_EVENT);
    await expectEvent(cdto, IT_DTO_RDMA_WRITE_CMPL_EVENT);
    console.log('client: Send and RDMA Write completed');
    await expectEvent(scm, IT_CM_MSG_CONN_ESTABLISHED_EVENT);
    await expectEvent(sdto, IT_DTO_RC_RECV_CMPL_EVENT);
    const decode = (b: Uint8Array) => new TextDecoder().decode(b).replace(/\0+$/, '');
    console.log(`server: received ${JSON.stringify(decode(serverBuf.subarray(0, 32)))}`);
    console.log(`server: buffer now holds ${JSON.stringify(decode(serverBuf.subarray(32)))}`);

    // 7. Tear down: disconnect (both sides see the DISCONNECT event); it_ia_free frees every object.
    it_ep_disconnect(cep, null);
    await expectEvent(ccm, IT_CM_MSG_CONN_DISCONNECT_EVENT);
    await expectEvent(scm, IT_CM_MSG_CONN_DISCONNECT_EVENT);
    console.log('done');
  } finally {
    it_ia_free(ia);
  }
}

main().catch((e: unknown) => {
  console.error(`IT-API example failed: ${(e as Error).message}`);
  process.exitCode = 1;
});
