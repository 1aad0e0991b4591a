/**
 * A whole InfiniBand transport packet as RoCEv2 carries it in a UDP datagram (IBTA Vol. 1
 * §9.2–§9.3; Annex A17.4): BTH, the extension headers of its opcode (the table in
 * `opcodes.ts`), the payload, 0–3 pad octets (PadCnt; zero), and the 4-octet ICRC.
 *
 * {@link encodeIbPacket} builds it (the ICRC with the IP/UDP header it will be sent with, or
 * zero when none is given: a caller may patch it later with `writeIcrc`); {@link decodeIbPacket}
 * parses and validates everything that does not depend on the receiving QP (§9.6: the
 * transport version, a supported opcode, lengths, pad), leaving the ICRC to `icrc.ts` because
 * checking it needs the IP header. The payload is a view into the input, not a copy.
 *
 * @packageDocumentation
 */
import { type Aeth } from './aeth.js';
import { type AtomicAckEth, type AtomicEth } from './atomic-eth.js';
import { type Bth } from './bth.js';
import { type Deth } from './deth.js';
import { type RoceIpHeader } from './icrc.js';
import { type Reth } from './reth.js';
/** An InfiniBand transport packet: the BTH, the extension headers its opcode has, the payload. */
export interface IbPacket {
    bth: Bth;
    reth?: Reth;
    aeth?: Aeth;
    atomicEth?: AtomicEth;
    atomicAckEth?: AtomicAckEth;
    deth?: Deth;
    /** ImmDt (§9.3.7), as a big-endian uint32. */
    immDt?: number;
    /** IETH (§9.3.8): the R_Key to invalidate. */
    ieth?: number;
    /** Payload octets (without pad). On decode, a view into the input. */
    payload: Uint8Array;
    /** On decode: the ICRC found on the wire (little-endian, as `readIcrc`). Ignored by encode. */
    icrc?: number;
}
/** Pad octets after a payload of `len` octets: to the next multiple of 4 (§9.2, PadCnt). */
export declare function ibPadCount(len: number): number;
/** Octets of the packet (BTH … ICRC) for `opcode` with `payloadLen` payload octets. */
export declare function ibPacketLength(opcode: number, payloadLen: number): number;
/**
 * Encodes `p` (BTH … ICRC). The opcode must be in the table, its extension headers present
 * (others are refused, so a packet cannot carry a header its opcode does not have), a payload
 * only where the opcode allows one, and `bth.padCnt` equal to {@link ibPadCount} of the payload
 * (RangeError otherwise). `payload` may be given in parts (gathered without a copy first). With
 * `ip`, the ICRC is computed for those IP/UDP headers; without, it is left zero.
 */
export declare function encodeIbPacket(p: IbPacket, ip?: RoceIpHeader, parts?: readonly Uint8Array[]): Uint8Array;
/**
 * Decodes a packet (the whole UDP payload: BTH … ICRC). Drops (IbWireError) a truncated packet,
 * TVer ≠ 0, an opcode not in the table, a length that is not a multiple of 4 (§9.2: payload +
 * pad fill whole words), a payload or pad on an opcode without payload, a pad on a FIRST or
 * MIDDLE packet (only the last packet of a message may be short, §9.7.1), and a reserved AETH
 * syndrome. The ICRC is read, not checked.
 */
export declare function decodeIbPacket(buf: Uint8Array): IbPacket;
/** One line: `RC_SEND_ONLY BTH … | RETH … | 100 B`. */
export declare function stringifyIbPacket(p: IbPacket): string;
