/**
 * IT-API example server (written against IT-API 2.1 only).
 *
 * Listens on a port, takes one connection request (whose private data describes a buffer of the
 * client), pre-posts a Receive and accepts (iWARP without RTR state: the passive side becomes
 * CONNECTED with the client's first Send). Then it RDMA-Reads the client's buffer, RDMA-Writes a
 * reply into its second half, Sends "done", and waits for the client to disconnect.
 *
 *   node dist/examples/itapi/server.js [port]     (prints "listening on port N")
 */
import {
  IT_ADDR_MODE_ABSOLUTE,
  IT_CM_MSG_CONN_DISCONNECT_EVENT,
  IT_CM_MSG_CONN_ESTABLISHED_EVENT,
  IT_CM_MSG_EVENT_STREAM,
  IT_CM_REQ_CONN_REQUEST_EVENT,
  IT_CM_REQ_EVENT_STREAM,
  IT_COMPLETION_FLAG,
  IT_DTO_EVENT_STREAM,
  IT_DTO_RC_RECV_CMPL_EVENT,
  IT_DTO_RDMA_READ_CMPL_EVENT,
  IT_DTO_RDMA_WRITE_CMPL_EVENT,
  IT_DTO_SEND_CMPL_EVENT,
  IT_EVD_OVERFLOW_DEFAULT,
  IT_IANA_PORT,
  IT_LISTEN_CONN_QUAL_INPUT,
  IT_LISTEN_NO_FLAG,
  IT_NOTIFY_FLAG,
  IT_PRIV_LOCAL,
  IT_PRIV_REMOTE_WRITE,
  it_ep_accept,
  it_ep_disconnect,
  it_ep_rc_create,
  it_evd_create,
  it_ia_create,
  it_ia_free,
  it_listen_create,
  it_lmr_create,
  it_make_rdma_addr_absolute,
  it_post_rdma_read,
  it_post_rdma_write,
  it_post_recv,
  it_post_send,
  it_pz_create,
  type it_conn_request_event_t,
  type it_evd_flags_t,
  type it_lmr_flag_t,
} from '../../src/itapi/index.js';
import { decodeOffer, expectEvent, interfaceName } from './common.js';

const NO_EVD_FLAGS = 0 as it_evd_flags_t;
const NO_LMR_FLAGS = 0 as it_lmr_flag_t;

async function main(): Promise<void> {
  const wanted = Number(process.argv[2] ?? 0);
  const ia = it_ia_create(interfaceName(), 2, 1);
  try {
    const pz = it_pz_create(ia);
    const dto = it_evd_create(ia, IT_DTO_EVENT_STREAM, NO_EVD_FLAGS, 64, 1, null).evd_handle;
    const cm = it_evd_create(ia, IT_CM_MSG_EVENT_STREAM, IT_EVD_OVERFLOW_DEFAULT, 8, 1, null).evd_handle;
    const creq = it_evd_create(ia, IT_CM_REQ_EVENT_STREAM, NO_EVD_FLAGS, 4, 1, null).evd_handle;
    const flags = wanted > 0 ? IT_LISTEN_CONN_QUAL_INPUT : IT_LISTEN_NO_FLAG;
    const l = it_listen_create(ia, 0, creq, flags, { type: IT_IANA_PORT, conn_qual: { port: wanted } });
    const port = 'port' in l.conn_qual.conn_qual ? l.conn_qual.conn_qual.port : 0;
    console.log(`listening on port ${port}`);

    const req = (await expectEvent(creq, IT_CM_REQ_CONN_REQUEST_EVENT, 'server')) as it_conn_request_event_t;
    const offer = decodeOffer(req.private_data);
    console.log(
      `client offers ${offer.length} bytes at 0x${offer.addr.toString(16)} (context 0x${offer.context.toString(16)}): ${JSON.stringify(offer.greeting)}`,
    );

    const ep = it_ep_rc_create(pz, dto, dto, cm, 0, {
      max_dto_payload_size: 1 << 16,
      max_request_dtos: 8,
      max_recv_dtos: 8,
      max_send_segments: 2,
      max_recv_segments: 2,
      priv_ops_enable: false,
      srv: {
        rc: {
          rdma_read_enable: false,
          // iWARP: the sink of an RDMA Read needs Remote Write (and the Endpoint's write enable).
          rdma_write_enable: true,
          max_rdma_read_segments: 1,
          max_rdma_write_segments: 1,
          rdma_read_ird: 0,
          rdma_read_ord: 4,
          srq: null,
          soft_hi_watermark: 0,
          hard_hi_watermark: 0,
          atomics_enable: false,
        },
      },
    });
    const buf = new Uint8Array(256);
    const lmr = it_lmr_create(
      pz,
      buf,
      null,
      buf.length,
      IT_ADDR_MODE_ABSOLUTE,
      IT_PRIV_LOCAL | IT_PRIV_REMOTE_WRITE,
      NO_LMR_FLAGS,
      0,
    ).lmr_handle;
    const base = it_make_rdma_addr_absolute(buf);
    // The client's first Send ("ready") lands here and makes this side CONNECTED.
    it_post_recv(ep, [{ lmr, addr: base + 192n, length: 64 }], 1n, IT_COMPLETION_FLAG | IT_NOTIFY_FLAG);
    it_ep_accept(ep, req.cn_est_id, new TextEncoder().encode('welcome'));
    await expectEvent(cm, IT_CM_MSG_CONN_ESTABLISHED_EVENT, 'server');
    await expectEvent(dto, IT_DTO_RC_RECV_CMPL_EVENT, 'server');

    const half = Math.floor(offer.length / 2);
    it_post_rdma_read(ep, [{ lmr, addr: base, length: half }], 2n, IT_COMPLETION_FLAG, offer.addr, offer.context);
    await expectEvent(dto, IT_DTO_RDMA_READ_CMPL_EVENT, 'server');
    const got = new TextDecoder().decode(buf.subarray(0, half)).replace(/\0+$/, '');
    console.log(`read from the client: ${JSON.stringify(got)}`);

    const reply = new TextEncoder().encode(`reply to ${JSON.stringify(got)}`);
    buf.set(reply.subarray(0, 64), 64);
    const n = Math.min(reply.length, 64, offer.length - half);
    it_post_rdma_write(ep, [{ lmr, addr: base + 64n, length: n }], 3n, IT_COMPLETION_FLAG, offer.addr + BigInt(half), offer.context);
    await expectEvent(dto, IT_DTO_RDMA_WRITE_CMPL_EVENT, 'server');

    buf.set(new TextEncoder().encode('done'), 128);
    it_post_send(ep, [{ lmr, addr: base + 128n, length: 4 }], 4n, IT_COMPLETION_FLAG);
    await expectEvent(dto, IT_DTO_SEND_CMPL_EVENT, 'server');

    await expectEvent(cm, IT_CM_MSG_CONN_DISCONNECT_EVENT, 'server');
    // Already NONOPERATIONAL after the peer's disconnect: a legal no-op that queues nothing.
    it_ep_disconnect(ep, null);
    console.log('server done');
  } finally {
    it_ia_free(ia);
  }
}

main().catch((e: unknown) => {
  console.error(`server failed: ${(e as Error).stack ?? e}`);
  process.exitCode = 1;
});
