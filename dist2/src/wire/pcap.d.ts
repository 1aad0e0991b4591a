/** One end of a TCP connection. */
export interface PcapEndpoint {
    /** Dotted-quad IPv4 address. */
    ip: string;
    port: number;
    /** 6-octet MAC; derived from the IP address when absent. */
    mac?: Uint8Array;
}
/** Options of {@link PcapWriter}. */
export interface PcapWriterOptions {
    /** Snapshot length recorded in the header (default 262144); frames are never truncated. */
    snaplen?: number;
    /** Timestamp source in microseconds since the epoch (default: wall clock, kept increasing). */
    clockMicros?: () => number;
}
/** Options of {@link PcapWriter.tcpConnection}. */
export interface PcapConnectionOptions {
    /** Initial sequence numbers (default: derived from the endpoints). */
    isnA?: number;
    isnB?: number;
    /** Largest TCP payload per segment; default 65495, the IPv4 maximum (65535 − 40). */
    maxSegment?: number;
    /** Write the SYN/SYN-ACK/ACK handshake (default true). */
    handshake?: boolean;
}
/** libpcap magic for microsecond timestamps. */
export declare const PCAP_MAGIC = 2712847316;
/** LINKTYPE_ETHERNET. */
export declare const PCAP_LINKTYPE_ETHERNET = 1;
/** The largest TCP payload an IPv4 packet without options can carry. */
export declare const PCAP_MAX_TCP_PAYLOAD: number;
/** One UDP datagram for {@link PcapWriter.udpDatagram}. */
export interface PcapUdpDatagram {
    src: PcapEndpoint;
    dst: PcapEndpoint;
    payload: Uint8Array;
    /** IPv4 Identification (default: the writer's counter). RoCEv2 sends 0 (its ICRC covers it). */
    ipId?: number;
    /** Time to live (default 64). */
    ttl?: number;
}
/** The UDP port of RoCEv2 (IBTA Vol. 1 Annex A17.2), which Wireshark decodes as RRoCE. */
export declare const ROCEV2_UDP_PORT = 4791;
/** Writes libpcap records; see the module documentation. */
export declare class PcapWriter {
    #private;
    /** @param sink a function receiving the file's bytes in order, or a path to create. */
    constructor(sink: ((b: Uint8Array) => void) | string, opts?: PcapWriterOptions);
    /** Writes one raw link-layer frame. */
    writeFrame(frame: Uint8Array): void;
    /** Starts a synthetic TCP connection from `a` (the active opener) to `b`. */
    tcpConnection(a: PcapEndpoint, b: PcapEndpoint, opts?: PcapConnectionOptions): PcapTcpConnection;
    /**
     * Writes one UDP datagram in an Ethernet/IPv4 frame (DF set, IPv4 header checksum and UDP
     * checksum computed). RoCEv2 traffic to port 4791 decodes in tshark as RRoCE.
     */
    udpDatagram(d: PcapUdpDatagram): void;
    /** @internal next IPv4 identification value. */
    nextIpId(): number;
    /** Closes the file (when writing to a path). */
    close(): void;
}
/** A TCP connection inside a {@link PcapWriter}: tracks sequence numbers per direction. */
export declare class PcapTcpConnection {
    #private;
    constructor(w: PcapWriter, a: PcapEndpoint, b: PcapEndpoint, opts?: PcapConnectionOptions);
    /** Records `bytes` sent from A to B (`fromA`) or from B to A, split into TCP segments as needed. */
    send(fromA: boolean, bytes: Uint8Array): void;
    /** Records the FIN/ACK exchange (A closes first). */
    close(): void;
}
