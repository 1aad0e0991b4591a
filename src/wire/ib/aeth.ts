/**
 * The ACK Extended Transport Header (IBTA Vol. 1 §9.3.5), 4 octets: a Syndrome and the
 * responder's 24-bit Message Sequence Number. It follows the BTH in ACKNOWLEDGE, ATOMIC
 * ACKNOWLEDGE and RDMA READ RESPONSE FIRST/LAST/ONLY packets.
 *
 * The Syndrome (§9.3.5, and §9.7.5.2 for its use):
 *
 * ```
 *  bit 7     reserved (0)
 *  bits 6-5  00 ACK · 01 RNR NAK · 10 reserved · 11 NAK
 *  bits 4-0  ACK: credit count (0x1F = invalid, "no credits advertised")
 *            RNR NAK: the RNR timer code (the table below)
 *            NAK: 0 PSN sequence error · 1 invalid request · 2 remote access error ·
 *                 3 remote operational error · 4 invalid RD request · others reserved
 * ```
 *
 * @packageDocumentation
 */
import { checkUint, hx, IbDropReason, IbWireError } from './errors.js';

/** Octets of the AETH. */
export const AETH_LEN = 4;

/** AETH syndrome types (bits 6-5). */
export enum AethType {
  Ack = 0,
  RnrNak = 1,
  Reserved = 2,
  Nak = 3,
}

/** NAK codes (§9.7.5.2.x; wire syndromes 0x60–0x64). */
export enum NakCode {
  /** PSN Sequence Error (syndrome 0x60): the requester retransmits from the NAK's PSN. */
  PsnSequenceError = 0,
  /** Invalid Request (0x61): unsupported or malformed request; the QP goes to Error. */
  InvalidRequest = 1,
  /** Remote Access Error (0x62): R_Key, range or rights. */
  RemoteAccessError = 2,
  /** Remote Operational Error (0x63): the responder could not complete the request. */
  RemoteOperationalError = 3,
  /** Invalid RD Request (0x64): Reliable Datagram only. */
  InvalidRdRequest = 4,
}

/** The credit count of an ACK that advertises no credits (§9.7.7.2: "invalid credit count"). */
export const AETH_CREDITS_INVALID = 0x1f;

/** AETH (§9.3.5). */
export interface Aeth {
  /** The Syndrome octet as on the wire. */
  syndrome: number;
  /** MSN (24 bits). */
  msn: number;
}

/** The syndrome of an ACK with `credits` (default: no credits advertised, 0x1F as rxe sends). */
export function ackSyndrome(credits = AETH_CREDITS_INVALID): number {
  checkUint('credit count', credits, 5);
  return credits;
}

/** The syndrome of an RNR NAK with timer code `timer` (0–31). */
export function rnrSyndrome(timer: number): number {
  checkUint('RNR timer', timer, 5);
  return 0x20 | timer;
}

/** The syndrome of a NAK with `code`. */
export function nakSyndrome(code: NakCode): number {
  checkUint('NAK code', code, 5);
  return 0x60 | code;
}

/** The type of a syndrome (bits 6-5). */
export function aethType(syndrome: number): AethType {
  return (syndrome >>> 5) & 3;
}

/** The 5-bit value of a syndrome (credits, timer or NAK code). */
export function aethValue(syndrome: number): number {
  return syndrome & 0x1f;
}

/**
 * The RNR NAK timer field (5 bits) → microseconds: the "RNR NAK timer field encodings" table of
 * §9.7.5.2.8 (0 is the longest, 655.36 ms; 1 is 0.01 ms … 31 is 491.52 ms).
 */
export const RNR_TIMER_USEC: readonly number[] = Object.freeze([
  655360, 10, 20, 30, 40, 60, 80, 120, 160, 240, 320, 480, 640, 960, 1280, 1920, 2560, 3840, 5120, 7680, 10240, 15360, 20480, 30720, 40960,
  61440, 81920, 122880, 163840, 245760, 327680, 491520,
]);

/** Checks that a syndrome is defined: bit 7 zero, type not reserved, NAK code ≤ 4. */
function validSyndrome(s: number): boolean {
  if (s & 0x80) return false;
  const t = aethType(s);
  if (t === AethType.Reserved) return false;
  if (t === AethType.Nak && aethValue(s) > NakCode.InvalidRdRequest) return false;
  return true;
}

export function encodeAeth(h: Aeth, out?: Uint8Array, offset = 0): Uint8Array {
  checkUint('Syndrome', h.syndrome, 8);
  checkUint('MSN', h.msn, 24);
  const buf = out ?? new Uint8Array(AETH_LEN);
  if (buf.length - offset < AETH_LEN) throw new RangeError('buffer too small for the AETH');
  buf[offset] = h.syndrome;
  buf[offset + 1] = h.msn >>> 16;
  buf[offset + 2] = (h.msn >>> 8) & 0xff;
  buf[offset + 3] = h.msn & 0xff;
  return buf;
}

/** Decodes an AETH; a reserved syndrome drops the packet (§9.3.5). */
export function decodeAeth(buf: Uint8Array, offset = 0): Aeth {
  if (buf.length - offset < AETH_LEN) throw new IbWireError(IbDropReason.Truncated, 'AETH');
  const syndrome = buf[offset]!;
  if (!validSyndrome(syndrome)) throw new IbWireError(IbDropReason.Syndrome, `AETH syndrome ${hx(syndrome, 2)}`);
  return { syndrome, msn: (buf[offset + 1]! << 16) | (buf[offset + 2]! << 8) | buf[offset + 3]! };
}

const NAK_NAMES = ['PSN sequence error', 'invalid request', 'remote access error', 'remote operational error', 'invalid RD request'];

/** e.g. `ACK credits=31`, `RNR NAK timer=12 (640 µs)`, `NAK remote access error`. */
export function describeSyndrome(syndrome: number): string {
  const v = aethValue(syndrome);
  switch (aethType(syndrome)) {
    case AethType.Ack:
      return `ACK credits=${v === AETH_CREDITS_INVALID ? 'invalid' : v}`;
    case AethType.RnrNak:
      return `RNR NAK timer=${v} (${RNR_TIMER_USEC[v]} µs)`;
    case AethType.Nak:
      return `NAK ${NAK_NAMES[v] ?? `code ${v}`}`;
    default:
      return `reserved syndrome ${hx(syndrome, 2)}`;
  }
}

export function stringifyAeth(h: Aeth): string {
  return `AETH ${hx(h.syndrome, 2)} ${describeSyndrome(h.syndrome)} MSN=${h.msn}`;
}
