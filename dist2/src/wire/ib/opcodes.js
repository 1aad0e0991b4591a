/**
 * The InfiniBand transport opcodes this stack speaks: Reliable Connection, Unreliable
 * Connection and Unreliable Datagram (IBTA Vol. 1 §9.2, the OpCode field table; RoCEv2 carries
 * the same opcodes, Annex A17.4). The upper 3 bits name the transport service (RC 000, UC 001,
 * RD 010 (not supported), UD 011), the lower 5 the operation.
 *
 * One table, {@link IB_OPCODES}, says for every opcode which extension headers follow the BTH
 * and in which order, whether it carries a payload, its place in a message (first, middle,
 * last, only), and whether it is a request or a response. The packet encoder and decoder and
 * the transport all read it, as Linux rxe reads its `rxe_opcode[]`. Opcodes not in the table
 * (RD, CNP, FLUSH and ATOMIC WRITE of later releases) are dropped on receive (§9.6.1.1).
 *
 * @packageDocumentation
 */
import { AETH_LEN } from './aeth.js';
import { ATOMIC_ACK_ETH_LEN, ATOMIC_ETH_LEN } from './atomic-eth.js';
import { BTH_LEN } from './bth.js';
import { DETH_LEN } from './deth.js';
import { IETH_LEN, IMMDT_LEN } from './immdt.js';
import { RETH_LEN } from './reth.js';
/** Transport service: the opcode's upper 3 bits (§9.2). */
export var IbService;
(function (IbService) {
    IbService[IbService["RC"] = 0] = "RC";
    IbService[IbService["UC"] = 32] = "UC";
    IbService[IbService["UD"] = 96] = "UD";
})(IbService || (IbService = {}));
/** RC opcodes (§9.2; the names of Linux `ib_pack.h`). UC = RC + 0x20 where UC has it. */
export var IbOpcode;
(function (IbOpcode) {
    IbOpcode[IbOpcode["RC_SEND_FIRST"] = 0] = "RC_SEND_FIRST";
    IbOpcode[IbOpcode["RC_SEND_MIDDLE"] = 1] = "RC_SEND_MIDDLE";
    IbOpcode[IbOpcode["RC_SEND_LAST"] = 2] = "RC_SEND_LAST";
    IbOpcode[IbOpcode["RC_SEND_LAST_WITH_IMMEDIATE"] = 3] = "RC_SEND_LAST_WITH_IMMEDIATE";
    IbOpcode[IbOpcode["RC_SEND_ONLY"] = 4] = "RC_SEND_ONLY";
    IbOpcode[IbOpcode["RC_SEND_ONLY_WITH_IMMEDIATE"] = 5] = "RC_SEND_ONLY_WITH_IMMEDIATE";
    IbOpcode[IbOpcode["RC_RDMA_WRITE_FIRST"] = 6] = "RC_RDMA_WRITE_FIRST";
    IbOpcode[IbOpcode["RC_RDMA_WRITE_MIDDLE"] = 7] = "RC_RDMA_WRITE_MIDDLE";
    IbOpcode[IbOpcode["RC_RDMA_WRITE_LAST"] = 8] = "RC_RDMA_WRITE_LAST";
    IbOpcode[IbOpcode["RC_RDMA_WRITE_LAST_WITH_IMMEDIATE"] = 9] = "RC_RDMA_WRITE_LAST_WITH_IMMEDIATE";
    IbOpcode[IbOpcode["RC_RDMA_WRITE_ONLY"] = 10] = "RC_RDMA_WRITE_ONLY";
    IbOpcode[IbOpcode["RC_RDMA_WRITE_ONLY_WITH_IMMEDIATE"] = 11] = "RC_RDMA_WRITE_ONLY_WITH_IMMEDIATE";
    IbOpcode[IbOpcode["RC_RDMA_READ_REQUEST"] = 12] = "RC_RDMA_READ_REQUEST";
    IbOpcode[IbOpcode["RC_RDMA_READ_RESPONSE_FIRST"] = 13] = "RC_RDMA_READ_RESPONSE_FIRST";
    IbOpcode[IbOpcode["RC_RDMA_READ_RESPONSE_MIDDLE"] = 14] = "RC_RDMA_READ_RESPONSE_MIDDLE";
    IbOpcode[IbOpcode["RC_RDMA_READ_RESPONSE_LAST"] = 15] = "RC_RDMA_READ_RESPONSE_LAST";
    IbOpcode[IbOpcode["RC_RDMA_READ_RESPONSE_ONLY"] = 16] = "RC_RDMA_READ_RESPONSE_ONLY";
    IbOpcode[IbOpcode["RC_ACKNOWLEDGE"] = 17] = "RC_ACKNOWLEDGE";
    IbOpcode[IbOpcode["RC_ATOMIC_ACKNOWLEDGE"] = 18] = "RC_ATOMIC_ACKNOWLEDGE";
    IbOpcode[IbOpcode["RC_COMPARE_SWAP"] = 19] = "RC_COMPARE_SWAP";
    IbOpcode[IbOpcode["RC_FETCH_ADD"] = 20] = "RC_FETCH_ADD";
    IbOpcode[IbOpcode["RC_SEND_LAST_WITH_INVALIDATE"] = 22] = "RC_SEND_LAST_WITH_INVALIDATE";
    IbOpcode[IbOpcode["RC_SEND_ONLY_WITH_INVALIDATE"] = 23] = "RC_SEND_ONLY_WITH_INVALIDATE";
    IbOpcode[IbOpcode["UC_SEND_FIRST"] = 32] = "UC_SEND_FIRST";
    IbOpcode[IbOpcode["UC_SEND_MIDDLE"] = 33] = "UC_SEND_MIDDLE";
    IbOpcode[IbOpcode["UC_SEND_LAST"] = 34] = "UC_SEND_LAST";
    IbOpcode[IbOpcode["UC_SEND_LAST_WITH_IMMEDIATE"] = 35] = "UC_SEND_LAST_WITH_IMMEDIATE";
    IbOpcode[IbOpcode["UC_SEND_ONLY"] = 36] = "UC_SEND_ONLY";
    IbOpcode[IbOpcode["UC_SEND_ONLY_WITH_IMMEDIATE"] = 37] = "UC_SEND_ONLY_WITH_IMMEDIATE";
    IbOpcode[IbOpcode["UC_RDMA_WRITE_FIRST"] = 38] = "UC_RDMA_WRITE_FIRST";
    IbOpcode[IbOpcode["UC_RDMA_WRITE_MIDDLE"] = 39] = "UC_RDMA_WRITE_MIDDLE";
    IbOpcode[IbOpcode["UC_RDMA_WRITE_LAST"] = 40] = "UC_RDMA_WRITE_LAST";
    IbOpcode[IbOpcode["UC_RDMA_WRITE_LAST_WITH_IMMEDIATE"] = 41] = "UC_RDMA_WRITE_LAST_WITH_IMMEDIATE";
    IbOpcode[IbOpcode["UC_RDMA_WRITE_ONLY"] = 42] = "UC_RDMA_WRITE_ONLY";
    IbOpcode[IbOpcode["UC_RDMA_WRITE_ONLY_WITH_IMMEDIATE"] = 43] = "UC_RDMA_WRITE_ONLY_WITH_IMMEDIATE";
    IbOpcode[IbOpcode["UD_SEND_ONLY"] = 100] = "UD_SEND_ONLY";
    IbOpcode[IbOpcode["UD_SEND_ONLY_WITH_IMMEDIATE"] = 101] = "UD_SEND_ONLY_WITH_IMMEDIATE";
})(IbOpcode || (IbOpcode = {}));
/** Extension-header flags, in wire order: RETH/AtomicETH/DETH/AETH first, then the rest. */
export const HDR_RETH = 1 << 0;
export const HDR_AETH = 1 << 1;
export const HDR_ATOMIC_ETH = 1 << 2;
export const HDR_ATOMIC_ACK_ETH = 1 << 3;
export const HDR_DETH = 1 << 4;
export const HDR_IMMDT = 1 << 5;
export const HDR_IETH = 1 << 6;
const SIZES = [
    [HDR_RETH, RETH_LEN],
    [HDR_AETH, AETH_LEN],
    [HDR_ATOMIC_ETH, ATOMIC_ETH_LEN],
    [HDR_ATOMIC_ACK_ETH, ATOMIC_ACK_ETH_LEN],
    [HDR_DETH, DETH_LEN],
    [HDR_IMMDT, IMMDT_LEN],
    [HDR_IETH, IETH_LEN],
];
function op(opcode, name, operation, pos, headers) {
    const offsets = new Map();
    let len = BTH_LEN;
    for (const [flag, size] of SIZES) {
        if (headers & flag) {
            offsets.set(flag, len);
            len += size;
        }
    }
    const off = (f) => offsets.get(f) ?? -1;
    const request = operation === 'send' || operation === 'write' || operation === 'read-request' || operation === 'atomic';
    const last = pos === 'last' || pos === 'only';
    const immediate = (headers & HDR_IMMDT) !== 0;
    return Object.freeze({
        opcode,
        name,
        service: (opcode & 0xe0),
        operation,
        headers,
        headerLength: len,
        rethOffset: off(HDR_RETH),
        aethOffset: off(HDR_AETH),
        atomicEthOffset: off(HDR_ATOMIC_ETH),
        atomicAckEthOffset: off(HDR_ATOMIC_ACK_ETH),
        dethOffset: off(HDR_DETH),
        immDtOffset: off(HDR_IMMDT),
        iethOffset: off(HDR_IETH),
        payload: operation === 'send' || operation === 'write' || operation === 'read-response',
        first: pos === 'first' || pos === 'only',
        last,
        request,
        consumesRecv: operation === 'send' || (operation === 'write' && immediate && last),
        immediate,
        invalidate: (headers & HDR_IETH) !== 0,
    });
}
function rcAndUc(list, base, suffix, operation, pos, headers, uc) {
    list.push(op(base, `RC_${suffix}`, operation, pos, headers));
    if (uc)
        list.push(op(base | IbService.UC, `UC_${suffix}`, operation, pos, headers));
}
function buildTable() {
    const l = [];
    rcAndUc(l, 0x00, 'SEND_FIRST', 'send', 'first', 0, true);
    rcAndUc(l, 0x01, 'SEND_MIDDLE', 'send', 'middle', 0, true);
    rcAndUc(l, 0x02, 'SEND_LAST', 'send', 'last', 0, true);
    rcAndUc(l, 0x03, 'SEND_LAST_WITH_IMMEDIATE', 'send', 'last', HDR_IMMDT, true);
    rcAndUc(l, 0x04, 'SEND_ONLY', 'send', 'only', 0, true);
    rcAndUc(l, 0x05, 'SEND_ONLY_WITH_IMMEDIATE', 'send', 'only', HDR_IMMDT, true);
    rcAndUc(l, 0x06, 'RDMA_WRITE_FIRST', 'write', 'first', HDR_RETH, true);
    rcAndUc(l, 0x07, 'RDMA_WRITE_MIDDLE', 'write', 'middle', 0, true);
    rcAndUc(l, 0x08, 'RDMA_WRITE_LAST', 'write', 'last', 0, true);
    rcAndUc(l, 0x09, 'RDMA_WRITE_LAST_WITH_IMMEDIATE', 'write', 'last', HDR_IMMDT, true);
    rcAndUc(l, 0x0a, 'RDMA_WRITE_ONLY', 'write', 'only', HDR_RETH, true);
    rcAndUc(l, 0x0b, 'RDMA_WRITE_ONLY_WITH_IMMEDIATE', 'write', 'only', HDR_RETH | HDR_IMMDT, true);
    rcAndUc(l, 0x0c, 'RDMA_READ_REQUEST', 'read-request', 'only', HDR_RETH, false);
    rcAndUc(l, 0x0d, 'RDMA_READ_RESPONSE_FIRST', 'read-response', 'first', HDR_AETH, false);
    rcAndUc(l, 0x0e, 'RDMA_READ_RESPONSE_MIDDLE', 'read-response', 'middle', 0, false);
    rcAndUc(l, 0x0f, 'RDMA_READ_RESPONSE_LAST', 'read-response', 'last', HDR_AETH, false);
    rcAndUc(l, 0x10, 'RDMA_READ_RESPONSE_ONLY', 'read-response', 'only', HDR_AETH, false);
    rcAndUc(l, 0x11, 'ACKNOWLEDGE', 'ack', 'only', HDR_AETH, false);
    rcAndUc(l, 0x12, 'ATOMIC_ACKNOWLEDGE', 'atomic-ack', 'only', HDR_AETH | HDR_ATOMIC_ACK_ETH, false);
    rcAndUc(l, 0x13, 'COMPARE_SWAP', 'atomic', 'only', HDR_ATOMIC_ETH, false);
    rcAndUc(l, 0x14, 'FETCH_ADD', 'atomic', 'only', HDR_ATOMIC_ETH, false);
    rcAndUc(l, 0x16, 'SEND_LAST_WITH_INVALIDATE', 'send', 'last', HDR_IETH, false);
    rcAndUc(l, 0x17, 'SEND_ONLY_WITH_INVALIDATE', 'send', 'only', HDR_IETH, false);
    l.push(op(IbOpcode.UD_SEND_ONLY, 'UD_SEND_ONLY', 'send', 'only', HDR_DETH));
    l.push(op(IbOpcode.UD_SEND_ONLY_WITH_IMMEDIATE, 'UD_SEND_ONLY_WITH_IMMEDIATE', 'send', 'only', HDR_DETH | HDR_IMMDT));
    const t = new Array(256).fill(undefined);
    for (const i of l)
        t[i.opcode] = i;
    return Object.freeze(t);
}
/** The opcode table, indexed by the 8-bit OpCode; `undefined` for opcodes not supported. */
export const IB_OPCODES = buildTable();
/** The table row of `opcode`, or undefined. */
export function ibOpInfo(opcode) {
    return IB_OPCODES[opcode & 0xff];
}
/** The name of `opcode` (`RC_SEND_ONLY`, or `OPCODE_0x81` for an unsupported one). */
export function ibOpcodeName(opcode) {
    return IB_OPCODES[opcode & 0xff]?.name ?? `OPCODE_0x${(opcode & 0xff).toString(16).padStart(2, '0')}`;
}
//# sourceMappingURL=opcodes.js.map