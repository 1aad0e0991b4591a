import { FaultHook, type FaultPlan } from '../util/fault-hook.js';
import { type IbPacket } from '../wire/ib/index.js';
/** The RoCEv2 UDP destination port (IBTA Vol. 1 Annex A17.2.4). */
export declare const ROCEV2_PORT = 4791;
/** IPv4 + UDP header octets in front of every packet. */
export declare const IPV4_UDP_OVERHEAD = 28;
/** One received packet, decoded, with where it came from. */
export interface RoceRx {
    pkt: IbPacket;
    /** The whole UDP payload (BTH … ICRC). */
    raw: Uint8Array;
    srcAddress: string;
    srcPort: number;
    /** The local address it was received on (the endpoint's). */
    dstAddress: string;
    /** The IPv4 Identification recovered from the ICRC. */
    ipId: number;
}
/** A targeted fault of the tests (see {@link RoceNet.setTap}). */
export type RoceTap = (pkt: Uint8Array, address: string, port: number) => 'pass' | 'drop' | 'duplicate';
/** What a QP attached to a {@link RoceNet} hears. */
export interface RoceNetClient {
    /** A packet for this QP (DestQP matched, ICRC valid, headers well-formed). */
    rx(r: RoceRx): void;
    /** The socket failed (bind error, closed under it). */
    netError(err: Error): void;
}
/** Counters of one endpoint. */
export interface RoceNetStats {
    txPackets: number;
    txBytes: number;
    txErrors: number;
    rxPackets: number;
    rxBytes: number;
    /** Dropped: no IPv4 ID makes the ICRC valid. */
    rxIcrcErrors: number;
    /** Dropped: failed the packet checks of `decodeIbPacket` (IBTA §9.6). */
    rxMalformed: number;
    /** Dropped: no QP with that DestQP here. */
    rxNoQp: number;
    /** A client threw while handling a packet (a bug; logged). */
    rxClientErrors: number;
}
/**
 * True when the `sockopt` addon loaded, so endpoints can make the kernel send IPv4 ID 0. It is
 * an optional dependency: its 2.0.1 prebuilds for Linux are in fact macOS binaries, so on
 * Linux it loads only when node-gyp built it at install (a C++ toolchain and Node's headers).
 */
export declare function ipIdZeroSupported(): boolean;
/** IPv4 dotted quad → 4 octets (RangeError for anything else); cached, do not modify. */
export declare function ipv4Bytes(a: string): Uint8Array;
/** The DestQP of a multicast datagram (IBTA Vol. 1 §10.5: QPN 0xFFFFFF). */
export declare const MULTICAST_QPN = 16777215;
/** True for an IPv4 address in 224.0.0.0/4. */
export declare function isIpv4Multicast(a: string): boolean;
/** The IPv4 address of an IPv4-mapped GID (`::ffff:a.b.c.d`), or null. */
export declare function gidToIpv4(gid: Uint8Array): string | null;
/** The IPv4-mapped GID of `a.b.c.d` (RoCE v2 GID type, IBTA Annex A17.8). */
export declare function ipv4ToGid(address: string): Uint8Array;
/**
 * The MTU of the network interface that holds `address` (Linux: `/sys/class/net/<if>/mtu`), or
 * null when it cannot be told (another OS, an address of no interface).
 */
export declare function linkMtuOf(address: string): number | null;
/** A UDP endpoint of the RoCEv2 transport; see the module documentation. */
export declare class RoceNet {
    #private;
    readonly address: string;
    /**
     * Largest UDP payload sent: the link MTU of the address's interface less the IPv4 and UDP
     * headers (65507, the IPv4 maximum, when the link MTU is unknown). DF is set, so a larger
     * datagram would not leave; a QP whose path MTU does not fit is refused at INIT→RTR.
     */
    readonly maxDatagram: number;
    readonly stats: RoceNetStats;
    /** Resolves when the socket listens; rejects with the bind error. */
    readonly ready: Promise<void>;
    /**
     * A multicast group's endpoint (its address is the group's, 224.0.0.0/4): it receives the
     * group's datagrams (DestQP 0xFFFFFF) for every QP attached to it, on the interfaces it
     * joined (a real IGMP membership through the socket, IP_ADD_MEMBERSHIP), and sends nothing.
     */
    readonly multicast: boolean;
    private constructor();
    /**
     * The endpoint for `address:port`, created (and bound in the background) on first use;
     * every acquire is matched by a {@link release}. Port 0 (tests) binds a fresh ephemeral
     * port every time.
     */
    static acquire(address: string, port?: number): RoceNet;
    /** The endpoint for `address:port` if one is open. */
    static find(address: string, port?: number): RoceNet | undefined;
    /**
     * Drops one reference; the last closes the socket a little later, so that what was just
     * sent (a QP's last NAK before it entered Error) leaves first, and so that a QP bound right
     * after reuses the socket.
     */
    release(): void;
    /** Closes the socket now (attached clients hear `netError`). */
    close(): void;
    /** The UDP port (for port 0, the one the kernel chose, once {@link ready}). */
    get port(): number;
    /** True once `IP_MTU_DISCOVER = IP_PMTUDISC_DO` is set: datagrams leave with IPv4 ID 0. */
    get ipIdZero(): boolean;
    /** Directs packets for `qpn` to `client` (RangeError if the QPN is taken here). */
    attach(qpn: number, client: RoceNetClient): void;
    /**
     * Multicast endpoints: joins the group on the interface of `iface` (an address of ours), or
     * counts one more user of that membership. An interface without multicast (Linux `lo` unless
     * `ip link set lo multicast on`) refuses it: logged, the other interfaces still receive.
     */
    join(iface: string): void;
    /** Multicast endpoints: one user less of the membership on `iface`; the last one leaves the group (IGMP leave). */
    leave(iface: string): void;
    /** True when a QP with this number is attached here (QP1 of another RNIC on this address). */
    has(qpn: number): boolean;
    detach(qpn: number, client?: RoceNetClient): void;
    /**
     * Installs (or removes, with null) a targeted fault for tests: called with every packet
     * before the seeded fault hook; `'drop'` loses it, `'duplicate'` sends it twice.
     */
    setTap(tap: RoceTap | null): void;
    /** Installs (or removes, with null) the seeded fault hook applied to every datagram sent. */
    setFaults(plan: FaultPlan | null): FaultHook | null;
    /** Datagrams the socket has not handed to the kernel yet (backpressure for senders). */
    get sendQueueCount(): number;
    /**
     * Sends one packet (BTH … ICRC; the ICRC octets are overwritten) to `address:port`. The ICRC
     * is computed for IPv4 ID 0 and DF. The buffer must not be changed afterwards.
     */
    /**
     * Sends one datagram. `onDone`, if given, is called once the datagram has left the socket's
     * queue (sent, dropped by the fault hook, or failed), so a sender can bound what it has queued.
     */
    send(pkt: Uint8Array, address: string, port?: number, onDone?: () => void): void;
}
