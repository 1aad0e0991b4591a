/**
 * The wire format between `libsoftrdma.so` (preloaded into a C verbs program) and `softrdma
 * daemon`, over a unix stream socket. It is a private, same-host protocol: integers are
 * little-endian, and the payloads of the control calls are `key=value` lines (ASCII, `\n`
 * ended), which the C side reads with `strtoull` and no parser of its own. docs/preload.md
 * describes it.
 *
 * Request:  u32 length (of what follows) | u32 op | u32 seq | payload
 * Response: u32 length (of what follows) | u32 seq | i32 errno (0: success) | payload
 *
 * A frame is at most {@link MAX_FRAME} bytes; a longer one, an unknown op or a payload that is
 * not `key=value` lines ends the client's connection (and so frees its objects).
 */

/** The operations; each answers one response with the request's `seq`. */
export enum PreloadOp {
  /** `pid=N`: the client says who it is (for the log); answers `version=1`. */
  HELLO = 1,
  /** Answers `count=N` and `name.I=`, `guid.I=`, `transport.I=`, `node_type.I=` for each device. */
  GET_DEVICES = 2,
  /** `name=DEV`: answers `ctx=H`. */
  OPEN_DEVICE = 3,
  /** `ctx=H`. */
  CLOSE_DEVICE = 4,
  /** `ctx=H`: answers every field of `struct ibv_device_attr` by its C name. */
  QUERY_DEVICE = 5,
  /** `ctx=H port=P`: answers every field of `struct ibv_port_attr` by its C name. */
  QUERY_PORT = 6,
  /** `ctx=H port=P index=I`: answers `gid=` 32 hex digits and `gid_type=` (`enum ibv_gid_type`). */
  QUERY_GID = 7,
  /** `ctx=H port=P index=I`: answers `pkey=N`. */
  QUERY_PKEY = 8,
  /** `ctx=H`: answers `pd=H`. */
  ALLOC_PD = 9,
  /** `pd=H`. */
  DEALLOC_PD = 10,
  /**
   * `pd=H addr= length= access= offset= map_length=`, the memfd holding the region's pages sent
   * ahead on the fd channel (`offset`: of `addr` in it; `map_length`: its size): answers `mr=H lkey= rkey=`.
   */
  REG_MR = 11,
  /** `mr=H`. */
  DEREG_MR = 12,
  /** `ctx=H`: answers `channel=H` with the program's end of the channel socket (SCM_RIGHTS). */
  CREATE_COMP_CHANNEL = 13,
  /** `channel=H`. */
  DESTROY_COMP_CHANNEL = 14,
  /** `ctx=H cqe=N channel=H|0 comp_vector=N user=P` (P: written to the channel per event): answers `cq=H cqe=N`. */
  CREATE_CQ = 15,
  /** `cq=H`. */
  DESTROY_CQ = 16,
  /** `cq=H solicited_only=0|1`. */
  REQ_NOTIFY_CQ = 17,
  /** `cq=H n=N`: answers `count=K` and `wc.I.<member of struct ibv_wc>`. */
  POLL_CQ = 18,
  /** `pd=H send_cq=H recv_cq=H qp_type= sq_sig_all= cap.<member>`: answers `qp=H qp_num= cap.<member>`. */
  CREATE_QP = 19,
  /** `qp=H mask=M` and every member of `struct ibv_qp_attr` (nested ones dotted, GIDs as hex). */
  MODIFY_QP = 20,
  /** `qp=H mask=M`: answers the members of `struct ibv_qp_attr`, and `init.cap.<member>`, `init.sq_sig_all`. */
  QUERY_QP = 21,
  /** `qp=H`. */
  DESTROY_QP = 22,
  /**
   * `qp=H count=N` and `wr.I.<member>` of each `struct ibv_send_wr` (`sge.J.addr|length|lkey`,
   * or `inline=` the bytes as hex): on failure answers `bad=I`.
   */
  POST_SEND = 23,
  /** `qp=H count=N` and `wr.I.wr_id`, `wr.I.num_sge`, `wr.I.sge.J.*`: on failure answers `bad=I`. */
  POST_RECV = 24,
  /** `pd=H` and `ah_attr.<member>` (`ah_attr.grh.dgid` hex): answers `ah=H`. */
  CREATE_AH = 25,
  /** `ah=H`. */
  DESTROY_AH = 26,
  /** `ctx=H port=P wc.<member>` and `grh=` the 40 bytes of the GRH as hex: answers `ah_attr.<member>`. */
  INIT_AH_FROM_WC = 27,
  /** `pd=H attr.max_wr= attr.max_sge= attr.srq_limit=`: answers `srq=H attr.<member>`. */
  CREATE_SRQ = 28,
  /** `srq=H mask=M attr.<member>`. */
  MODIFY_SRQ = 29,
  /** `srq=H`: answers `attr.<member>`. */
  QUERY_SRQ = 30,
  /** `srq=H`. */
  DESTROY_SRQ = 31,
  /** `srq=H count=N` and the WRs as POST_RECV's: on failure answers `bad=I`. */
  POST_SRQ_RECV = 32,
  /** `qp=H gid=` hex `lid=N detach=0|1`. */
  ATTACH_MCAST = 33,
  /** rdma_cm (src/preload/cm.ts). Answers `channel=H` with the program's end of `channel->fd` (SCM_RIGHTS): one byte per event. */
  CM_CREATE_CHANNEL = 34,
  /** `channel=H`. */
  CM_DESTROY_CHANNEL = 35,
  /** `channel=H|0 ps=N [device=NAME]` (the program's `SOFTRDMA_DEVICE`): answers `id=H`. */
  CM_CREATE_ID = 36,
  /** `id=H`. */
  CM_DESTROY_ID = 37,
  /** `id=H addr= port=`. Every `id=H` call answers the id's `src.addr`, `src.port`, `dst.addr`, `dst.port` and `device` (once it has one). */
  CM_BIND_ADDR = 38,
  /** `id=H backlog=N`. */
  CM_LISTEN = 39,
  /** `id=H [src.addr= src.port=] dst.addr= dst.port= timeout=`. */
  CM_RESOLVE_ADDR = 40,
  /** `id=H timeout=`. */
  CM_RESOLVE_ROUTE = 41,
  /** `id=H qp=H`: the program's QP (CREATE_QP) becomes the id's. */
  CM_ATTACH_QP = 42,
  /** `id=H`: the id's QP is taken off it (not destroyed). */
  CM_DETACH_QP = 43,
  /** `id=H`, and `param=1` with the members of `struct rdma_conn_param` (`private_data` as hex) when given. */
  CM_CONNECT = 44,
  /** As CM_CONNECT. */
  CM_ACCEPT = 45,
  /** `id=H private_data=` hex. */
  CM_REJECT = 46,
  /** `id=H`. */
  CM_DISCONNECT = 47,
  /**
   * `channel=H`: the next event (EAGAIN: none): `ev=H event= status= id=H listen=H|0 ps=`,
   * `private_data=` hex, `param.conn`'s members or `qp_num= qkey= ah_attr.<member>`, and the id's addresses.
   */
  CM_GET_EVENT = 48,
  /** `ev=H`. */
  CM_ACK_EVENT = 49,
  /** `id=H channel=H|0`. */
  CM_MIGRATE_ID = 50,
  /** `id=H level= optname= value=`. */
  CM_SET_OPTION = 51,
  /**
   * `id=H family= addr= port= context= [send_only=1]`: joins the group; its MULTICAST_JOIN or
   * MULTICAST_ERROR event carries `mc_context=` (the program's `context`, echoed).
   */
  CM_JOIN_MCAST = 52,
  /** `id=H family= addr= port=`. */
  CM_LEAVE_MCAST = 53,
  /** `cq=H cqe=N`: answers `cqe=N`, the new size (at least N). */
  RESIZE_CQ = 54,
  /**
   * `ctx=H`: the context's next asynchronous event (EAGAIN: none): `event_type=` and one of
   * `qp=P`, `cq=P`, `srq=P` (the program's pointer given at create) or `port=N`.
   */
  GET_ASYNC_EVENT = 55,
  /**
   * `qp=H` or `srq=H`: the program wrote WRs into the rings of that QP or S-RQ (qp-ring.ts). Not answered: the program
   * does not wait, and the daemon takes the rings before any later request of the program.
   */
  DOORBELL = 56,
}

/** The protocol's version, answered by HELLO. */
export const PRELOAD_PROTOCOL_VERSION = 1;
/** The largest frame either side sends or accepts (the length word excluded). */
export const MAX_FRAME = 64 * 1024;
/** Bytes of a request header after the length word (op, seq). */
export const REQ_HEADER = 8;

/** `key=value` lines to a map; null when a line is not of that form or a key repeats. */
export function parsePayload(b: Buffer): Map<string, string> | null {
  const m = new Map<string, string>();
  const text = b.toString('latin1');
  if (text.length === 0) return m;
  if (!text.endsWith('\n')) return null;
  for (const line of text.slice(0, -1).split('\n')) {
    const eq = line.indexOf('=');
    if (eq <= 0) return null;
    const k = line.slice(0, eq);
    if (!/^[a-z0-9_.]{1,64}$/.test(k) || m.has(k)) return null;
    const v = line.slice(eq + 1);
    // Inline send data travels as hex (up to 1 KiB of bytes).
    if (!/^[\x20-\x7e]{0,2048}$/.test(v)) return null;
    m.set(k, v);
  }
  return m;
}

/** A map (insertion order) to `key=value` lines; values as decimal for numbers and bigints. */
export function formatPayload(fields: Iterable<readonly [string, string | number | bigint]>): Buffer {
  let s = '';
  for (const [k, v] of fields) s += `${k}=${v}\n`;
  return Buffer.from(s, 'latin1');
}

/** An unsigned decimal (or 0x hex) field in [0, max]; null when missing or out of range. */
export function uintField(m: Map<string, string>, key: string, max = 0xffff_ffff): number | null {
  const v = m.get(key);
  if (v === undefined || !/^(0x[0-9a-fA-F]{1,8}|[0-9]{1,10})$/.test(v)) return null;
  const n = Number(v);
  return n <= max ? n : null;
}

/** A request frame (the client side; the tests speak it as the C library does). */
export function encodeRequest(op: PreloadOp, seq: number, payload: Buffer): Buffer {
  const h = Buffer.alloc(12);
  h.writeUInt32LE(REQ_HEADER + payload.length, 0);
  h.writeUInt32LE(op, 4);
  h.writeUInt32LE(seq >>> 0, 8);
  return Buffer.concat([h, payload]);
}

/** A response frame. */
export function encodeResponse(seq: number, errno: number, payload: Buffer): Buffer {
  const h = Buffer.alloc(12);
  h.writeUInt32LE(8 + payload.length, 0);
  h.writeUInt32LE(seq >>> 0, 4);
  h.writeInt32LE(errno, 8);
  return Buffer.concat([h, payload]);
}

/**
 * Splits a byte stream into frames: `push` the bytes read, get the complete frames (without
 * their length word). Throws a RangeError on a frame longer than {@link MAX_FRAME} or shorter
 * than `minLength`.
 */
export class FrameReader {
  #buf: Buffer = Buffer.alloc(0);
  readonly #minLength: number;
  constructor(minLength: number) {
    this.#minLength = minLength;
  }
  push(chunk: Buffer): Buffer[] {
    this.#buf = this.#buf.length === 0 ? chunk : Buffer.concat([this.#buf, chunk]);
    const out: Buffer[] = [];
    while (this.#buf.length >= 4) {
      const len = this.#buf.readUInt32LE(0);
      if (len > MAX_FRAME || len < this.#minLength) throw new RangeError(`frame length ${len} outside ${this.#minLength}..${MAX_FRAME}`);
      if (this.#buf.length < 4 + len) break;
      out.push(this.#buf.subarray(4, 4 + len));
      this.#buf = this.#buf.subarray(4 + len);
    }
    return out;
  }
}
