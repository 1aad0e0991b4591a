/** Transport service: the opcode's upper 3 bits (§9.2). */
export declare enum IbService {
    RC = 0,
    UC = 32,
    UD = 96
}
/** RC opcodes (§9.2; the names of Linux `ib_pack.h`). UC = RC + 0x20 where UC has it. */
export declare enum IbOpcode {
    RC_SEND_FIRST = 0,
    RC_SEND_MIDDLE = 1,
    RC_SEND_LAST = 2,
    RC_SEND_LAST_WITH_IMMEDIATE = 3,
    RC_SEND_ONLY = 4,
    RC_SEND_ONLY_WITH_IMMEDIATE = 5,
    RC_RDMA_WRITE_FIRST = 6,
    RC_RDMA_WRITE_MIDDLE = 7,
    RC_RDMA_WRITE_LAST = 8,
    RC_RDMA_WRITE_LAST_WITH_IMMEDIATE = 9,
    RC_RDMA_WRITE_ONLY = 10,
    RC_RDMA_WRITE_ONLY_WITH_IMMEDIATE = 11,
    RC_RDMA_READ_REQUEST = 12,
    RC_RDMA_READ_RESPONSE_FIRST = 13,
    RC_RDMA_READ_RESPONSE_MIDDLE = 14,
    RC_RDMA_READ_RESPONSE_LAST = 15,
    RC_RDMA_READ_RESPONSE_ONLY = 16,
    RC_ACKNOWLEDGE = 17,
    RC_ATOMIC_ACKNOWLEDGE = 18,
    RC_COMPARE_SWAP = 19,
    RC_FETCH_ADD = 20,
    RC_SEND_LAST_WITH_INVALIDATE = 22,
    RC_SEND_ONLY_WITH_INVALIDATE = 23,
    UC_SEND_FIRST = 32,
    UC_SEND_MIDDLE = 33,
    UC_SEND_LAST = 34,
    UC_SEND_LAST_WITH_IMMEDIATE = 35,
    UC_SEND_ONLY = 36,
    UC_SEND_ONLY_WITH_IMMEDIATE = 37,
    UC_RDMA_WRITE_FIRST = 38,
    UC_RDMA_WRITE_MIDDLE = 39,
    UC_RDMA_WRITE_LAST = 40,
    UC_RDMA_WRITE_LAST_WITH_IMMEDIATE = 41,
    UC_RDMA_WRITE_ONLY = 42,
    UC_RDMA_WRITE_ONLY_WITH_IMMEDIATE = 43,
    UD_SEND_ONLY = 100,
    UD_SEND_ONLY_WITH_IMMEDIATE = 101
}
/** Extension-header flags, in wire order: RETH/AtomicETH/DETH/AETH first, then the rest. */
export declare const HDR_RETH: number;
export declare const HDR_AETH: number;
export declare const HDR_ATOMIC_ETH: number;
export declare const HDR_ATOMIC_ACK_ETH: number;
export declare const HDR_DETH: number;
export declare const HDR_IMMDT: number;
export declare const HDR_IETH: number;
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
/** The opcode table, indexed by the 8-bit OpCode; `undefined` for opcodes not supported. */
export declare const IB_OPCODES: readonly (IbOpInfo | undefined)[];
/** The table row of `opcode`, or undefined. */
export declare function ibOpInfo(opcode: number): IbOpInfo | undefined;
/** The name of `opcode` (`RC_SEND_ONLY`, or `OPCODE_0x81` for an unsupported one). */
export declare function ibOpcodeName(opcode: number): string;
