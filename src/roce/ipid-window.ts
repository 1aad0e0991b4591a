/**
 * Which IPv4 Identifications a RoCEv2 receiver accepts from each peer, so that the ICRC keeps
 * close to its 32 bits of protection although a UDP socket does not show the IPv4 header.
 *
 * The ICRC covers the IPv4 ID (IBTA Vol. 1 Annex A17.3.3), which the receiver cannot see: it is
 * solved for from the ICRC (`solveIpv4Id`), and exactly one ID fits any 16-bit error pattern, so
 * without more knowledge a corrupted packet passes 1 time in 2^16 per flags value tried. But
 * senders do not choose IDs at random:
 *
 * - Linux with `IP_PMTUDISC_DO` on an unconnected socket (softrdma, through the package's
 *   addon) sends DF and ID 0 (`ip_select_ident_segs`);
 * - Linux rxe, and a Node socket without that option, send DF and an ID from the kernel's
 *   counter for the address pair (`__ip_select_ident`): +1 back to back, a few more after idle
 *   time, shared by every flow between the two addresses.
 *
 * - a sender that hands the kernel a run of equal-sized packets in one UDP_SEGMENT send (softrdma's
 *   native datagram layer) gets IDs 0, 1, 2, … for the run's segments (`inet_gso_segment`), at
 *   most {@link SEGMENT_RUN_IDS} of them, and 0 again for the next run.
 *
 * So each peer (source address) has a state: a *zero* sender is accepted only with an ID below
 * {@link SEGMENT_RUN_IDS} and its flags; a *counter* sender only within {@link BEHIND} IDs behind and {@link AHEAD} IDs ahead of
 * the last ID accepted (reordering, and the counter's steps), with its flags, the ahead side
 * widened by the milliseconds since that packet: Linux's counter, idle, jumps by a random
 * number below the jiffies since its last use (`ip_idents_reserve`), and a jiffy is at least a
 * millisecond (HZ ≤ 1000). Without that, the one packet a UD peer sends after a pause (the
 * first ping of `ibv_ud_pingpong`, a `udaddy` message) is refused and nothing follows it to
 * re-learn from. After 65 s of silence the whole space is accepted: the ICRC alone, once. A packet outside
 * that is dropped like a bad ICRC, and its ID kept as a candidate: if the very next packet is
 * within {@link AHEAD} after the candidate, it re-learns the peer (a long idle jump of the counter, a
 * restarted peer), so a legitimate jump costs one dropped packet, which RC retransmits. A peer
 * never seen is learned from its first packet.
 *
 * At most {@link MAX_PEERS} peers are remembered per endpoint, the least recently active evicted
 * first (an active peer is moved away from the eviction end once half a map of new peers came
 * after it), so a flood of spoofed sources cannot grow memory.
 */

/** IDs accepted behind the last one (reordering). */
export const BEHIND = 64;
/** IDs accepted after the last one (the counter's steps, a burst lost in between). */
export const AHEAD = 191;
/**
 * Segments of one UDP_SEGMENT send, at most (and so the IDs 0 … 63 a zero sender's runs carry):
 * the sender's batching limit, within Linux's `UDP_MAX_SEGMENTS`.
 */
export const SEGMENT_RUN_IDS = 64;
/** Peers remembered per endpoint. */
export const MAX_PEERS = 1024;

interface PeerIds {
  /** The last ID accepted (the highest, modulo 2^16, of a counter sender). */
  last: number;
  flags: number;
  /** Only IDs of segment runs seen (below {@link SEGMENT_RUN_IDS}): accept those only. */
  zero: boolean;
  /** The ID (and flags) of the last packet refused, or -1. */
  cand: number;
  candFlags: number;
  /** The new-peer count when it was last put at the young end of the map. */
  gen: number;
  /** When a packet was last accepted from it (ms, the window's clock). */
  at: number;
}

/** The IPv4 IDs one RoCEv2 endpoint accepts, per peer address. */
export class IpIdWindow {
  readonly #peers = new Map<string, PeerIds>();
  /** New peers learned so far: a peer is moved to the young end once it is half a map old. */
  #gen = 0;
  #from = '';
  /** {@link accept} for the peer of {@link acceptFrom}, made once (no closure per packet). */
  readonly #acceptFrom = (ipId: number, flagsFrag: number): boolean => this.accept(this.#from, ipId, flagsFrag);
  /** Solutions refused (counted with the bad ICRCs by the caller when no other one fits). */
  refused = 0;
  /** Peers re-learned from a candidate. */
  relearned = 0;

  /**
   * @param clock milliseconds, monotonic: the time since a counter sender's last packet widens
   *   its window (see the module header).
   */
  constructor(
    readonly maxPeers = MAX_PEERS,
    readonly clock: () => number = () => performance.now(),
  ) {}

  /** Peers remembered. */
  get size(): number {
    return this.#peers.size;
  }

  /** Whether `peer` is remembered. */
  knows(peer: string): boolean {
    return this.#peers.has(peer);
  }

  /** `solveIpv4Id`'s `accept` for a packet from `peer` (valid until the next call). */
  acceptFrom(peer: string): (ipId: number, flagsFrag: number) => boolean {
    this.#from = peer;
    return this.#acceptFrom;
  }

  /**
   * Whether a packet from `peer` whose ICRC is valid with `ipId` and `flagsFrag` is accepted;
   * learns from it either way.
   */
  accept(peer: string, ipId: number, flagsFrag: number): boolean {
    const st = this.#peers.get(peer);
    if (!st) {
      if (this.#peers.size >= this.maxPeers) this.#peers.delete(this.#peers.keys().next().value!);
      this.#peers.set(peer, { last: ipId, flags: flagsFrag, zero: ipId === 0, cand: -1, candFlags: 0, gen: ++this.#gen, at: this.clock() });
      return true;
    }
    if (flagsFrag === st.flags) {
      if (st.zero ? ipId < SEGMENT_RUN_IDS : this.#inWindow(ipId, st)) {
        if (!st.zero && ahead(ipId, st.last) < 0x10000 - BEHIND) st.last = ipId;
        st.cand = -1;
        this.#touch(peer, st);
        return true;
      }
    }
    if (st.cand >= 0 && flagsFrag === st.candFlags && (st.cand === 0 ? ipId < SEGMENT_RUN_IDS : ahead(ipId, st.cand) <= AHEAD)) {
      // Two packets agree on where the peer's IDs are now: re-learn it there.
      this.relearned++;
      st.last = ipId;
      st.at = this.clock();
      st.flags = flagsFrag;
      st.zero = st.cand === 0 && ipId < SEGMENT_RUN_IDS;
      st.cand = -1;
      this.#touch(peer, st);
      return true;
    }
    st.cand = ipId;
    st.candFlags = flagsFrag;
    this.refused++;
    return false;
  }

  /**
   * Within {@link BEHIND} before `st.last` or {@link AHEAD} after it, the ahead side widened by
   * the milliseconds since `st.at` (a counter's idle jump); moves `st.at` to now when inside.
   */
  #inWindow(ipId: number, st: PeerIds): boolean {
    const d = ahead(ipId, st.last);
    if (d >= 0x10000 - BEHIND) return true;
    const now = this.clock();
    if (d > AHEAD + Math.max(0, Math.floor(now - st.at))) return false;
    st.at = now;
    return true;
  }

  /** Keeps an active peer away from the eviction end (re-inserted only when half a map old). */
  #touch(peer: string, st: PeerIds): void {
    if (this.#gen - st.gen <= this.maxPeers >> 1) return;
    st.gen = this.#gen;
    this.#peers.delete(peer);
    this.#peers.set(peer, st);
  }
}

/** How far `id` is after `from`, modulo 2^16. */
function ahead(id: number, from: number): number {
  return (id - from) & 0xffff;
}
