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
export enum IbService {
  RC = 0x00,
  UC = 0x20,
  UD = 0x60,
}

/** RC opcodes (§9.2; the names of Linux `ib_pack.h`). UC = RC + 0x20 where UC has it. */
export enum IbOpcode {
  RC_SEND_FIRST = 0x00,
  RC_SEND_MIDDLE = 0x01,
  RC_SEND_LAST = 0x02,
  RC_SEND_LAST_WITH_IMMEDIATE = 0x03,
  RC_SEND_ONLY = 0x04,
  RC_SEND_ONLY_WITH_IMMEDIATE = 0x05,
  RC_RDMA_WRITE_FIRST = 0x06,
  RC_RDMA_WRITE_MIDDLE = 0x07,
  RC_RDMA_WRITE_LAST = 0x08,
  RC_RDMA_WRITE_LAST_WITH_IMMEDIATE = 0x09,
  RC_RDMA_WRITE_ONLY = 0x0a,
  RC_RDMA_WRITE_ONLY_WITH_IMMEDIATE = 0x0b,
  RC_RDMA_READ_REQUEST = 0x0c,
  RC_RDMA_READ_RESPONSE_FIRST = 0x0d,
  RC_RDMA_READ_RESPONSE_MIDDLE = 0x0e,
  RC_RDMA_READ_RESPONSE_LAST = 0x0f,
  RC_RDMA_READ_RESPONSE_ONLY = 0x10,
  RC_ACKNOWLEDGE = 0x11,
  RC_ATOMIC_ACKNOWLEDGE = 0x12,
  RC_COMPARE_SWAP = 0x13,
  RC_FETCH_ADD = 0x14,
  RC_SEND_LAST_WITH_INVALIDATE = 0x16,
  RC_SEND_ONLY_WITH_INVALIDATE = 0x17,
  UC_SEND_FIRST = 0x20,
  UC_SEND_MIDDLE = 0x21,
  UC_SEND_LAST = 0x22,
  UC_SEND_LAST_WITH_IMMEDIATE = 0x23,
  UC_SEND_ONLY = 0x24,
  UC_SEND_ONLY_WITH_IMMEDIATE = 0x25,
  UC_RDMA_WRITE_FIRST = 0x26,
  UC_RDMA_WRITE_MIDDLE = 0x27,
  UC_RDMA_WRITE_LAST = 0x28,
  UC_RDMA_WRITE_LAST_WITH_IMMEDIATE = 0x29,
  UC_RDMA_WRITE_ONLY = 0x2a,
  UC_RDMA_WRITE_ONLY_WITH_IMMEDIATE = 0x2b,
  UD_SEND_ONLY = 0x64,
  UD_SEND_ONLY_WITH_IMMEDIATE = 0x65,
}

/** Extension-header flags, in wire order: RETH/AtomicETH/DETH/AETH first, then the rest. */
export const HDR_RETH = 1 << 0;
export const HDR_AETH = 1 << 1;
export const HDR_ATOMIC_ETH = 1 << 2;
export const HDR_ATOMIC_ACK_ETH = 1 << 3;
export const HDR_DETH = 1 << 4;
export const HDR_IMMDT = 1 << 5;
export const HDR_IETH = 1 << 6;

/** The operation an opcode belongs to. */
export type IbOperation = 'send' | 'write' | 'read-request' | 'read-response' | 'ack' | 'atomic' | 'atomic-ack';

/** What a transport needs to know about an opcode (the columns of rxe's `rxe_opcode[]`). */
export interface IbOpInfo {
  readonly opcode: number;
  /** e.g. `RC_SEND_FIRST`. */
  readonly name: string;
  readonly service: IbService;
  readonly operation: IbOperation;
  /** Extension headers after the BTH (`HDR_*` flags). */
  readonly headers: number;
  /** BTH + extension headers, in octets. */
  readonly headerLength: number;
  /** Offsets from the start of the BTH of each extension header present (−1 when absent). */
  readonly rethOffset: number;
  readonly aethOffset: number;
  readonly atomicEthOffset: number;
  readonly atomicAckEthOffset: number;
  readonly dethOffset: number;
  readonly immDtOffset: number;
  readonly iethOffset: number;
  /** Carries payload octets (§9.2: sends, writes, read responses). */
  readonly payload: boolean;
  /** Starts a message (FIRST or ONLY). */
  readonly first: boolean;
  /** Ends a message (LAST or ONLY). */
  readonly last: boolean;
  /** A request (requester → responder) rather than a response (ACK, read response, atomic ACK). */
  readonly request: boolean;
  /** Consumes a receive WQE at the responder (sends; writes with immediate at their end). */
  readonly consumesRecv: boolean;
  /** Carries immediate data. */
  readonly immediate: boolean;
  /** Carries an R_Key to invalidate. */
  readonly invalidate: boolean;
}

const SIZES: ReadonlyArray<readonly [number, number]> = [
  [HDR_RETH, RETH_LEN],
  [HDR_AETH, AETH_LEN],
  [HDR_ATOMIC_ETH, ATOMIC_ETH_LEN],
  [HDR_ATOMIC_ACK_ETH, ATOMIC_ACK_ETH_LEN],
  [HDR_DETH, DETH_LEN],
  [HDR_IMMDT, IMMDT_LEN],
  [HDR_IETH, IETH_LEN],
];

type Pos = 'first' | 'middle' | 'last' | 'only';

function op(opcode: number, name: string, operation: IbOperation, pos: Pos, headers: number): IbOpInfo {
  const offsets = new Map<number, number>();
  let len = BTH_LEN;
  for (const [flag, size] of SIZES) {
    if (headers & flag) {
      offsets.set(flag, len);
      len += size;
    }
  }
  const off = (f: number) => offsets.get(f) ?? -1;
  const request = operation === 'send' || operation === 'write' || operation === 'read-request' || operation === 'atomic';
  const last = pos === 'last' || pos === 'only';
  const immediate = (headers & HDR_IMMDT) !== 0;
  return Object.freeze({
    opcode,
    name,
    service: (opcode & 0xe0) as IbService,
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

function rcAndUc(list: IbOpInfo[], base: number, suffix: string, operation: IbOperation, pos: Pos, headers: number, uc: boolean): void {
  list.push(op(base, `RC_${suffix}`, operation, pos, headers));
  if (uc) list.push(op(base | IbService.UC, `UC_${suffix}`, operation, pos, headers));
}

function buildTable(): readonly (IbOpInfo | undefined)[] {
  const l: IbOpInfo[] = [];
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
  const t: (IbOpInfo | undefined)[] = new Array(256).fill(undefined);
  for (const i of l) t[i.opcode] = i;
  return Object.freeze(t);
}

/** The opcode table, indexed by the 8-bit OpCode; `undefined` for opcodes not supported. */
export const IB_OPCODES: readonly (IbOpInfo | undefined)[] = buildTable();

/** The table row of `opcode`, or undefined. */
export function ibOpInfo(opcode: number): IbOpInfo | undefined {
  return IB_OPCODES[opcode & 0xff];
}

/** The name of `opcode` (`RC_SEND_ONLY`, or `OPCODE_0x81` for an unsupported one). */
export function ibOpcodeName(opcode: number): string {
  return IB_OPCODES[opcode & 0xff]?.name ?? `OPCODE_0x${(opcode & 0xff).toString(16).padStart(2, '0')}`;
}
