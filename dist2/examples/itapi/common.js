/**
 * Shared bits of the IT-API example client and server: printing Events and waiting for them.
 * Written against the IT-API binding only.
 */
import { IT_SUCCESS, it_evd_wait, it_event_type_t, it_interface_list, itStatusName, } from '../../src/itapi/index.js';
/** The first IT-API Interface (an iWARP RNIC of softrdma). */
export function interfaceName() {
    const list = it_interface_list(1);
    const first = list.interfaces[0];
    if (!first)
        throw new Error('no IT-API interface');
    return first.name;
}
/** Private data as text when it is text, else as hex (the trailing zeros of the 256-byte buffer cut). */
function text(b) {
    let end = b.length;
    while (end > 0 && b[end - 1] === 0)
        end--;
    const used = b.subarray(0, end);
    if (used.every((c) => c >= 0x20 && c < 0x7f))
        return JSON.stringify(new TextDecoder().decode(used));
    return `0x${Buffer.from(used).toString('hex')}`;
}
/** One line describing an Event (its name and the fields that matter for it). */
export function describe(ev) {
    const name = it_event_type_t[ev.event_number] ?? `0x${ev.event_number.toString(16)}`;
    const parts = [name];
    if ('cookie' in ev) {
        parts.push(`cookie=${ev.cookie}`, `status=${ev.dto_status}`, `length=${ev.transferred_length}`);
    }
    if ('cn_est_id' in ev && 'source_addr' in ev) {
        const a = ev.source_addr.addr;
        parts.push(`from=${'ipv4' in a ? a.ipv4 : 'ipv6' in a ? a.ipv6 : '?'}`, `ird=${ev.rdma_read_ird}`, `ord=${ev.rdma_read_ord}`);
    }
    if ('reject_reason_code' in ev) {
        parts.push(`ird=${ev.rdma_read_ird}`, `ord=${ev.rdma_read_ord}`);
        if (ev.event_number === it_event_type_t.IT_CM_MSG_CONN_NONPEER_REJECT_EVENT)
            parts.push(`reason=${ev.reject_reason_code}`);
    }
    if ('private_data_present' in ev && ev.private_data_present)
        parts.push(`private_data=${text(ev.private_data)}`);
    return parts.join(' ');
}
/** Waits for the next Event of `evd` and prints it. */
export async function nextEvent(evd, who, ms = 10_000) {
    const r = await it_evd_wait(evd, BigInt(ms) * 1000n);
    if (r.status !== IT_SUCCESS)
        throw new Error(`${who}: no event within ${ms} ms (${itStatusName(r.status)})`);
    console.log(`event: ${describe(r.event)}`);
    return r.event;
}
/** Waits for an Event with number `n` (printing everything it sees on the way). */
export async function expectEvent(evd, n, who) {
    const ev = await nextEvent(evd, who);
    if (ev.event_number !== n)
        throw new Error(`${who}: expected ${it_event_type_t[n]}, got ${describe(ev)}`);
    return ev;
}
export function encodeOffer(o) {
    const g = new TextEncoder().encode(o.greeting);
    const b = new Uint8Array(16 + g.length);
    const v = new DataView(b.buffer);
    v.setBigUint64(0, o.addr); // IT-API values travel big-endian (network byte order)
    v.setUint32(8, o.context);
    v.setUint32(12, o.length);
    b.set(g, 16);
    return b;
}
export function decodeOffer(pd) {
    const v = new DataView(pd.buffer, pd.byteOffset, pd.byteLength);
    const rest = pd.subarray(16);
    const end = rest.indexOf(0);
    return {
        addr: v.getBigUint64(0),
        context: v.getUint32(8),
        length: v.getUint32(12),
        greeting: new TextDecoder().decode(end < 0 ? rest : rest.subarray(0, end)),
    };
}
//# sourceMappingURL=common.js.map