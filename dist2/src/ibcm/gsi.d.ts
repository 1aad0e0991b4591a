/** Where a MAD goes to or came from: a GID, a QPN (1 unless redirected), its Q_Key and P_Key. */
export interface GsiAddress {
    /** 16 octets; on RoCE v2 IPv4 an IPv4-mapped GID. */
    gid: Uint8Array;
    qpn: number;
    qkey: number;
    pkey: number;
    /**
     * Our side of the path: on receive, the local GID the MAD was addressed to; on send, the
     * local GID to send from (a port may hold several: one per IPv4 address on RoCE). A reply
     * leaves from the GID its request arrived on. Absent: the port's first GID.
     */
    localGid?: Uint8Array;
}
/** A GSI port: QP1 of one RNIC port (IBTA Vol. 1 §13.5.1). */
export interface GsiPort {
    /** Sends one 256-octet MAD as a UD datagram. Never throws for a lost datagram (UD is unreliable). */
    send(mad: Uint8Array, to: GsiAddress): void;
    /** Installs the receive handler (one per port). `from` is the sender's GID, source QPN and keys. */
    onReceive(handler: (mad: Uint8Array, from: GsiAddress) => void): void;
    /** Stops receiving. */
    close(): void;
}
/** A timer scheduler. The CM never reads a clock; it only arms and cancels timers. */
export interface Timers {
    set(fn: () => void, ms: number): unknown;
    clear(handle: unknown): void;
}
/** Node's timers, unref'd so that a pending CM timer never keeps a process alive. */
export declare const realTimers: Timers;
/**
 * A virtual clock: timers fire only when the test advances time, in deadline order (ties in
 * the order they were set). `run()` advances until nothing is pending or a limit is reached.
 */
export declare class ManualClock implements Timers {
    #private;
    get now(): number;
    set(fn: () => void, ms: number): unknown;
    clear(handle: unknown): void;
    /** Number of armed timers. */
    get pending(): number;
    /** Fires every timer due within `ms` from now, in order, then sets the clock to now + ms. */
    advance(ms: number): void;
    /**
     * Fires timers in order until none is pending, `until()` is true, or the clock passed
     * `limitMs` from now. Returns the number of timers fired.
     */
    run(opts?: {
        until?: () => boolean;
        limitMs?: number;
        maxEvents?: number;
    }): number;
}
/** The per-datagram decision of a fault source; `FaultHook` of the loopback transport fits. */
export interface GsiFaultSource {
    decide(): {
        drop: boolean;
        duplicate: boolean;
        reorder: boolean;
        delayMs: number;
        corrupt: boolean;
    };
}
/** A targeted fault: called for every datagram; `'drop'` loses it, `'duplicate'` sends it twice. */
export type GsiTap = (mad: Uint8Array, from: GsiAddress, to: GsiAddress) => 'pass' | 'drop' | 'duplicate';
/** Options of {@link MemoryGsiFabric}. */
export interface MemoryGsiOptions {
    timers: Timers;
    /** One-way delivery delay in ms (default 1). */
    latencyMs?: number;
    faults?: GsiFaultSource;
    tap?: GsiTap;
}
/**
 * An in-memory fabric of GSI ports keyed by GID. Datagrams are delivered through the timers
 * (never synchronously, so a handler that sends does not re-enter the receiver), copied, and
 * subject to the fault source and the tap. A datagram to an unknown GID is lost, as on a wire.
 */
export declare class MemoryGsiFabric {
    #private;
    /** Datagrams carried (after faults), for tests. */
    delivered: number;
    lost: number;
    constructor(opts: MemoryGsiOptions);
    set tap(t: GsiTap | undefined);
    /** A port answering at `gid` (QPN 1). */
    port(gid: Uint8Array): MemoryGsiPort;
    /** @internal */
    carry(mad: Uint8Array, from: GsiAddress, to: GsiAddress): void;
}
/** One port of a {@link MemoryGsiFabric}. */
export declare class MemoryGsiPort implements GsiPort {
    #private;
    readonly fabric: MemoryGsiFabric;
    readonly gid: Uint8Array;
    private readonly onClose;
    constructor(fabric: MemoryGsiFabric, gid: Uint8Array, onClose: () => void);
    /** This port's own address (QPN 1, the GSI Q_Key, the default P_Key). */
    get address(): GsiAddress;
    send(mad: Uint8Array, to: GsiAddress): void;
    onReceive(handler: (mad: Uint8Array, from: GsiAddress) => void): void;
    /** @internal */
    deliver(mad: Uint8Array, from: GsiAddress): void;
    close(): void;
}
