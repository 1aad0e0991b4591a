/**
 * The manual's Shared Receive Queue example (§8.5.3) in TypeScript: one SRQ serves the receive
 * side of several RC QPs (one per connection), set up with synchronous rdma_cm ids
 * (`rdma_getaddrinfo`, `rdma_create_ep`, `rdma_listen`, `rdma_get_request`, `rdma_accept`,
 * `rdma_connect`), with a completion channel on the SRQ's CQ.
 *
 *   node dist/examples/verbs/srq.js                         both sides on loopback (two processes)
 *   node dist/examples/verbs/srq.js -s -a <addr> [opts]     the server
 *   node dist/examples/verbs/srq.js -a <server addr> [opts] the client
 *   options: -p port (51216)  -c msg_count (100)  -l msg_length (100000)  -q qp_count (4)  -w max_wr (64)
 *
 * The client connects qp_count QPs that all receive through its SRQ, then sends up to max_wr
 * messages round-robin over them; the server, whose QPs share its own SRQ, counts them and
 * answers with one message on the first connection; repeat until msg_count messages were sent.
 *
 * The manual's text lost the `DEFAULT_*` values and the `VERB_ERR` macro: the defaults above and
 * the message "<verb> returned <ret> errno <errno>" are this port's. It also allocates the
 * `conn_id` array (missing in the text), uses `rdma_freeaddrinfo` (the text has `free(rai)`) and
 * `attr.srq` (the text has `attr.sq`).
 */
import { getErrno, IBV_QPT_RC, IBV_SEND_SIGNALED, IBV_WC_SUCCESS, ibv_wc_status_str, newWc, RAI_PASSIVE, RDMA_PS_TCP, rdmaListenReady, verbs, } from '../../src/verbs/index.js';
import { err, freePort, getopt, out, runBoth } from './common.js';
const DEFAULT_PORT = '51216';
const DEFAULT_MSG_COUNT = 100;
const DEFAULT_MSG_LENGTH = 100000;
const DEFAULT_QP_COUNT = 4;
const DEFAULT_MAX_WR = 64;
function VERB_ERR(verb, ret) {
    err(`${verb} returned ${ret} errno ${getErrno()}`);
}
/**
 * Resources common to client and server: an id bound to the device (by resolving the server's
 * address, or binding to it), the two MRs, the SRQ with max_wr receives posted, and the SRQ's CQ
 * with its completion channel, armed.
 */
async function init_resources(ctx, rai) {
    const r = verbs.rdma_create_id(null, null, RDMA_PS_TCP);
    if (r.ret) {
        VERB_ERR('rdma_create_id', r.ret);
        return r.ret;
    }
    ctx.srq_id = r.id;
    // Resolving or binding the address binds the id to an RDMA device.
    if (!ctx.server) {
        const ret = await verbs.rdma_resolve_addr(ctx.srq_id, null, rai.ai_dst_addr, 1000);
        if (ret) {
            VERB_ERR('rdma_resolve_addr', ret);
            return ret;
        }
    }
    else {
        const ret = verbs.rdma_bind_addr(ctx.srq_id, rai.ai_src_addr);
        if (ret) {
            VERB_ERR('rdma_bind_addr', ret);
            return ret;
        }
    }
    ctx.recv_mr = verbs.rdma_reg_msgs(ctx.srq_id, ctx.recv_buf, ctx.msg_length);
    if (!ctx.recv_mr) {
        VERB_ERR('rdma_reg_msgs', -1);
        return -1;
    }
    ctx.send_mr = verbs.rdma_reg_msgs(ctx.srq_id, ctx.send_buf, ctx.msg_length);
    if (!ctx.send_mr) {
        VERB_ERR('rdma_reg_msgs', -1);
        return -1;
    }
    const srq_attr = { attr: { max_wr: ctx.max_wr, max_sge: 1 } };
    let ret = verbs.rdma_create_srq(ctx.srq_id, null, srq_attr);
    if (ret) {
        VERB_ERR('rdma_create_srq', ret);
        return -1;
    }
    // Keep the SRQ to give it to the other QPs.
    ctx.srq = ctx.srq_id.srq;
    for (let i = 0; i < ctx.max_wr; i++) {
        ret = verbs.rdma_post_recv(ctx.srq_id, null, ctx.recv_buf, ctx.msg_length, ctx.recv_mr);
        if (ret) {
            VERB_ERR('rdma_post_recv', ret);
            return ret;
        }
    }
    ctx.srq_cq_channel = verbs.ibv_create_comp_channel(ctx.srq_id.verbs);
    if (!ctx.srq_cq_channel) {
        VERB_ERR('ibv_create_comp_channel', -1);
        return -1;
    }
    ctx.srq_cq = verbs.ibv_create_cq(ctx.srq_id.verbs, ctx.max_wr, null, ctx.srq_cq_channel, 0);
    if (!ctx.srq_cq) {
        VERB_ERR('ibv_create_cq', -1);
        return -1;
    }
    // Be notified of the first completion.
    ret = verbs.ibv_req_notify_cq(ctx.srq_cq, 0);
    if (ret) {
        VERB_ERR('ibv_req_notify_cq', ret);
        return ret;
    }
    return 0;
}
async function destroy_resources(ctx) {
    for (const id of ctx.conn_id) {
        if (!id)
            continue;
        // Not in the C code: on iWARP a Send completes once its data is handed to TCP, not once the
        // peer has it (IB completes on the ACK), and destroying a connected QP resets the
        // connection. Disconnecting first closes gracefully, after the last message.
        if (id.qp)
            await verbs.rdma_disconnect(id);
        verbs.rdma_destroy_qp(id);
        verbs.rdma_destroy_id(id);
    }
    if (ctx.recv_mr)
        verbs.rdma_dereg_mr(ctx.recv_mr);
    if (ctx.send_mr)
        verbs.rdma_dereg_mr(ctx.send_mr);
    if (ctx.srq_cq)
        verbs.ibv_destroy_cq(ctx.srq_cq);
    if (ctx.srq_cq_channel)
        verbs.ibv_destroy_comp_channel(ctx.srq_cq_channel);
    if (ctx.srq_id) {
        verbs.rdma_destroy_srq(ctx.srq_id);
        verbs.rdma_destroy_id(ctx.srq_id);
    }
}
/** Waits for a completion event on the SRQ's CQ, acks it and re-arms. */
async function await_completion(ctx) {
    const ev = await verbs.ibv_get_cq_event(ctx.srq_cq_channel);
    if (ev.ret) {
        VERB_ERR('ibv_get_cq_event', ev.ret);
        return ev.ret;
    }
    verbs.ibv_ack_cq_events(ev.cq, 1);
    const ret = verbs.ibv_req_notify_cq(ctx.srq_cq, 0);
    if (ret) {
        VERB_ERR('ibv_req_notify_cq', ret);
        return ret;
    }
    return 0;
}
function qpAttr(ctx) {
    return {
        qp_context: ctx,
        qp_type: IBV_QPT_RC,
        cap: { max_send_wr: ctx.max_wr, max_recv_wr: ctx.max_wr, max_send_sge: 1, max_recv_sge: 1, max_inline_data: 0 },
        recv_cq: ctx.srq_cq,
        srq: ctx.srq,
        sq_sig_all: 0,
    };
}
async function run_server(ctx, rai) {
    let send_count = 0;
    let recv_count = 0;
    const wc = [newWc()];
    let ret = await init_resources(ctx, rai);
    if (ret) {
        out(`init_resources returned ${ret}`);
        return ret;
    }
    // The SRQ's id is already bound: it becomes the listening id.
    ctx.listen_id = ctx.srq_id;
    ret = verbs.rdma_listen(ctx.listen_id, 4);
    if (ret) {
        VERB_ERR('rdma_listen', ret);
        return ret;
    }
    // rdma_listen binds in C before it returns; here the socket is bound asynchronously.
    await rdmaListenReady(ctx.listen_id);
    out('waiting for connection from client...');
    for (let i = 0; i < ctx.qp_count; i++) {
        const r = await verbs.rdma_get_request(ctx.listen_id);
        if (r.ret) {
            VERB_ERR('rdma_get_request', r.ret);
            return r.ret;
        }
        const id = r.id;
        ctx.conn_id[i] = id;
        ret = verbs.rdma_create_qp(id, null, qpAttr(ctx));
        if (ret) {
            VERB_ERR('rdma_create_qp', ret);
            return ret;
        }
        // The new connection receives through our SRQ.
        id.srq = ctx.srq;
        ret = await verbs.rdma_accept(id, null);
        if (ret) {
            VERB_ERR('rdma_accept', ret);
            verbs.rdma_reject(id, null);
            return ret;
        }
    }
    while (recv_count < ctx.msg_count) {
        let i = 0;
        while (i < ctx.max_wr && recv_count < ctx.msg_count) {
            ret = await await_completion(ctx);
            if (ret) {
                out(`await_completion ${ret}`);
                return ret;
            }
            let ne;
            do {
                ne = verbs.ibv_poll_cq(ctx.srq_cq, 1, wc);
                if (ne < 0) {
                    VERB_ERR('ibv_poll_cq', ne);
                    return ne;
                }
                if (ne === 0)
                    break;
                if (wc[0].status !== IBV_WC_SUCCESS) {
                    out(`work completion status ${ibv_wc_status_str(wc[0].status)}`);
                    return -1;
                }
                recv_count++;
                out(`recv count: ${recv_count}, qp_num: ${wc[0].qp_num}`);
                ret = verbs.rdma_post_recv(ctx.srq_id, null, ctx.recv_buf, ctx.msg_length, ctx.recv_mr);
                if (ret) {
                    VERB_ERR('rdma_post_recv', ret);
                    return ret;
                }
                i++;
            } while (ne);
        }
        ret = verbs.rdma_post_send(ctx.conn_id[0], null, ctx.send_buf, ctx.msg_length, ctx.send_mr, IBV_SEND_SIGNALED);
        if (ret) {
            VERB_ERR('rdma_post_send', ret);
            return ret;
        }
        ret = await verbs.rdma_get_send_comp(ctx.conn_id[0], wc[0]);
        if (ret <= 0) {
            VERB_ERR('rdma_get_send_comp', ret);
            return -1;
        }
        send_count++;
        out(`send count: ${send_count}`);
    }
    return 0;
}
async function run_client(ctx, rai) {
    let send_count = 0;
    let recv_count = 0;
    const wc = [newWc()];
    let ret = await init_resources(ctx, rai);
    if (ret) {
        out(`init_resources returned ${ret}`);
        return ret;
    }
    for (let i = 0; i < ctx.qp_count; i++) {
        const r = await verbs.rdma_create_ep(rai, null, qpAttr(ctx));
        if (r.ret) {
            VERB_ERR('rdma_create_ep', r.ret);
            return r.ret;
        }
        ctx.conn_id[i] = r.id;
        ret = await verbs.rdma_connect(r.id, null);
        if (ret) {
            VERB_ERR('rdma_connect', ret);
            return ret;
        }
    }
    while (send_count < ctx.msg_count) {
        for (let i = 0; i < ctx.max_wr && send_count < ctx.msg_count; i++) {
            // Round-robin over the connections.
            const id = ctx.conn_id[i % ctx.qp_count];
            ret = verbs.rdma_post_send(id, null, ctx.send_buf, ctx.msg_length, ctx.send_mr, IBV_SEND_SIGNALED);
            if (ret) {
                VERB_ERR('rdma_post_send', ret);
                return ret;
            }
            ret = await verbs.rdma_get_send_comp(id, wc[0]);
            if (ret <= 0) {
                VERB_ERR('rdma_get_send_comp', ret);
                return -1;
            }
            send_count++;
            out(`send count: ${send_count}, qp_num: ${wc[0].qp_num}`);
        }
        // Wait for the server's message saying it processed every buffer.
        ret = await await_completion(ctx);
        if (ret) {
            VERB_ERR('await_completion', ret);
            return ret;
        }
        let ne;
        do {
            ne = verbs.ibv_poll_cq(ctx.srq_cq, 1, wc);
            if (ne < 0) {
                VERB_ERR('ibv_poll_cq', ne);
                return ne;
            }
            if (ne === 0)
                break;
            if (wc[0].status !== IBV_WC_SUCCESS) {
                out(`work completion status ${ibv_wc_status_str(wc[0].status)}`);
                return -1;
            }
            recv_count++;
            out(`recv count: ${recv_count}`);
            ret = verbs.rdma_post_recv(ctx.srq_id, null, ctx.recv_buf, ctx.msg_length, ctx.recv_mr);
            if (ret) {
                VERB_ERR('rdma_post_recv', ret);
                return ret;
            }
        } while (ne);
    }
    return ret;
}
function usage(argv0) {
    out(`usage: ${argv0} -a server_address`);
    out('\t[-s server mode]');
    out('\t[-p port_number]');
    out('\t[-c msg_count]');
    out('\t[-l msg_length]');
    out('\t[-q qp_count]');
    out('\t[-w max_wr]');
    out('\t(without -s and -a: server and client on loopback)');
}
async function main(argv) {
    const argv0 = 'srq';
    const ctx = {
        server: false,
        server_name: null,
        server_port: DEFAULT_PORT,
        msg_count: DEFAULT_MSG_COUNT,
        msg_length: DEFAULT_MSG_LENGTH,
        qp_count: DEFAULT_QP_COUNT,
        max_wr: DEFAULT_MAX_WR,
        srq_id: null,
        listen_id: null,
        conn_id: [],
        send_mr: null,
        recv_mr: null,
        srq: null,
        srq_cq: null,
        srq_cq_channel: null,
        send_buf: new Uint8Array(0),
        recv_buf: new Uint8Array(0),
    };
    const { opts, rest, bad } = getopt(argv, 'apclqw', 's');
    if (bad || rest.length > 0) {
        usage(argv0);
        return 1;
    }
    if (!opts.has('a') && !opts.has('s')) {
        // No role and no address: both sides on loopback, each in its own process.
        const port = opts.get('p') ?? String(await freePort());
        const pass = ['-p', port];
        for (const k of ['c', 'l', 'q', 'w'])
            if (opts.has(k))
                pass.push(`-${k}`, opts.get(k));
        return runBoth(process.argv[1], ['-s', '-a', '127.0.0.1', ...pass], ['-a', '127.0.0.1', ...pass], /^waiting for connection/);
    }
    ctx.server = opts.has('s');
    ctx.server_name = opts.get('a') ?? null;
    if (opts.has('p'))
        ctx.server_port = opts.get('p');
    const num = (k, d) => (opts.has(k) ? Number.parseInt(opts.get(k), 10) : d);
    ctx.msg_count = num('c', ctx.msg_count);
    ctx.msg_length = num('l', ctx.msg_length);
    ctx.qp_count = num('q', ctx.qp_count);
    ctx.max_wr = num('w', ctx.max_wr);
    if (ctx.server_name === null) {
        out('server address required (use -a)!');
        return 1;
    }
    const hints = { ai_port_space: RDMA_PS_TCP, ai_flags: ctx.server ? RAI_PASSIVE : 0 };
    const g = await verbs.rdma_getaddrinfo(ctx.server_name, ctx.server_port, hints);
    if (g.ret) {
        VERB_ERR('rdma_getaddrinfo', g.ret);
        return g.ret;
    }
    const rai = g.res;
    ctx.conn_id = new Array(ctx.qp_count).fill(null);
    ctx.send_buf = new Uint8Array(ctx.msg_length);
    ctx.recv_buf = new Uint8Array(ctx.msg_length);
    const ret = ctx.server ? await run_server(ctx, rai) : await run_client(ctx, rai);
    await destroy_resources(ctx);
    verbs.rdma_freeaddrinfo(rai);
    return ret;
}
main(process.argv.slice(2)).then((rc) => {
    process.exitCode = rc === 0 ? 0 : 1;
}, (e) => {
    err(String(e?.stack ?? e));
    process.exitCode = 1;
});
//# sourceMappingURL=srq.js.map