/**
 * IT-API example client (written against IT-API 2.1 only).
 *
 * Registers a buffer the server may read and write, posts a Receive for the server's "done",
 * and connects with private data that describes the buffer. Once ESTABLISHED it Sends "ready"
 * (iWARP without RTR state: the active side's first message completes the passive side's
 * establishment), waits for "done", prints what the server wrote, and disconnects.
 *
 *   node dist/examples/itapi/client.js <port> [host]
 */
import { IT_ADDR_MODE_ABSOLUTE, IT_CM_MSG_CONN_DISCONNECT_EVENT, IT_CM_MSG_CONN_ESTABLISHED_EVENT, IT_CM_MSG_EVENT_STREAM, IT_COMPLETION_FLAG, IT_CONNECT_FLAG_TWO_WAY, IT_DTO_EVENT_STREAM, IT_DTO_RC_RECV_CMPL_EVENT, IT_DTO_SEND_CMPL_EVENT, IT_EVD_OVERFLOW_DEFAULT, IT_IANA_PORT, IT_IPV4, IT_NOTIFY_FLAG, IT_PRIV_ALL, IT_SUCCESS, it_ep_connect, it_ep_disconnect, it_ep_rc_create, it_evd_create, it_get_pathinfo, it_ia_create, it_ia_free, it_lmr_create, it_make_rdma_addr_absolute, it_post_recv, it_post_send, it_pz_create, } from '../../src/itapi/index.js';
import { encodeOffer, expectEvent, interfaceName } from './common.js';
const NO_EVD_FLAGS = 0;
const NO_LMR_FLAGS = 0;
async function main() {
    const port = Number(process.argv[2]);
    const host = process.argv[3] ?? '127.0.0.1';
    if (!Number.isInteger(port) || port <= 0)
        throw new Error('usage: client.js <port> [host]');
    const ia = it_ia_create(interfaceName(), 2, 1);
    try {
        const pz = it_pz_create(ia);
        const dto = it_evd_create(ia, IT_DTO_EVENT_STREAM, NO_EVD_FLAGS, 64, 1, null).evd_handle;
        const cm = it_evd_create(ia, IT_CM_MSG_EVENT_STREAM, IT_EVD_OVERFLOW_DEFAULT, 8, 1, null).evd_handle;
        const ep = it_ep_rc_create(pz, dto, dto, cm, 0, {
            max_dto_payload_size: 1 << 16,
            max_request_dtos: 8,
            max_recv_dtos: 8,
            max_send_segments: 2,
            max_recv_segments: 2,
            priv_ops_enable: false,
            srv: {
                rc: {
                    // The server reads and writes this side's buffer.
                    rdma_read_enable: true,
                    rdma_write_enable: true,
                    max_rdma_read_segments: 1,
                    max_rdma_write_segments: 1,
                    rdma_read_ird: 4,
                    rdma_read_ord: 0,
                    srq: null,
                    soft_hi_watermark: 0,
                    hard_hi_watermark: 0,
                    atomics_enable: false,
                },
            },
        });
        // 64 bytes the server reads, then 64 bytes it writes its reply into.
        const shared = new Uint8Array(128);
        shared.set(new TextEncoder().encode('client buffer: read me'));
        const mem = it_lmr_create(pz, shared, null, shared.length, IT_ADDR_MODE_ABSOLUTE, IT_PRIV_ALL, NO_LMR_FLAGS, 0);
        const msgs = new Uint8Array(64);
        const mlmr = it_lmr_create(pz, msgs, null, msgs.length, IT_ADDR_MODE_ABSOLUTE, IT_PRIV_ALL, NO_LMR_FLAGS, 0).lmr_handle;
        const maddr = it_make_rdma_addr_absolute(msgs);
        it_post_recv(ep, [{ lmr: mlmr, addr: maddr, length: 32 }], 1n, IT_COMPLETION_FLAG | IT_NOTIFY_FLAG);
        const paths = await it_get_pathinfo(ia, 0, { addr_type: IT_IPV4, addr: { ipv4: host } }, 1);
        if (paths.status !== IT_SUCCESS || paths.paths.length === 0)
            throw new Error('no path to the server');
        const pdata = encodeOffer({
            addr: it_make_rdma_addr_absolute(shared),
            context: mem.rmr_context,
            length: shared.length,
            greeting: 'hello from the client',
        });
        it_ep_connect(ep, paths.paths[0], null, { type: IT_IANA_PORT, conn_qual: { port } }, IT_CONNECT_FLAG_TWO_WAY, pdata);
        await expectEvent(cm, IT_CM_MSG_CONN_ESTABLISHED_EVENT, 'client');
        msgs.set(new TextEncoder().encode('ready'), 32);
        it_post_send(ep, [{ lmr: mlmr, addr: maddr + 32n, length: 5 }], 2n, IT_COMPLETION_FLAG);
        await expectEvent(dto, IT_DTO_SEND_CMPL_EVENT, 'client');
        await expectEvent(dto, IT_DTO_RC_RECV_CMPL_EVENT, 'client');
        console.log(`received: ${JSON.stringify(new TextDecoder().decode(msgs.subarray(0, 4)))}`);
        const written = new TextDecoder().decode(shared.subarray(64)).replace(/\0+$/, '');
        console.log(`the server wrote: ${JSON.stringify(written)}`);
        it_ep_disconnect(ep, null);
        await expectEvent(cm, IT_CM_MSG_CONN_DISCONNECT_EVENT, 'client');
        console.log('client done');
    }
    finally {
        it_ia_free(ia);
    }
}
main().catch((e) => {
    console.error(`client failed: ${e.stack ?? e}`);
    process.exitCode = 1;
});
//# sourceMappingURL=client.js.map