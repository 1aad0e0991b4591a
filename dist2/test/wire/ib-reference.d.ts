/**
 * A naive reference codec for InfiniBand transport packets, written straight from the header
 * layouts (IBTA Vol. 1 §9.2–§9.3, transcribed as field lists in bits) and the opcode list of
 * the RoCEv2 research notes, sharing no code with `src/wire/ib`. Each header is a list of
 * `[name, bits]`; encode packs the fields MSB first into a bit string, decode unpacks it. The
 * fast codec is tested against it.
 */
/** The opcode list of the research notes (§1.4), header names in wire order; payload flag. */
export declare const REF_OPCODES: Record<number, {
    name: string;
    headers: string[];
    payload: boolean;
}>;
/** A packet as the reference sees it (the same shape as `IbPacket`). */
export type RefPacket = Record<string, unknown> & {
    bth: Record<string, unknown>;
    payload: Uint8Array;
};
/** Encodes BTH, headers, payload, pad and a zero ICRC. */
export declare function refEncode(p: RefPacket): Uint8Array;
/** Decodes what {@link refEncode} writes (no validation beyond the opcode). */
export declare function refDecode(b: Uint8Array): RefPacket;
