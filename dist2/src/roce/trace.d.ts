/** The directory captures go to, or null when tracing is off. */
export declare function pcapDir(): string | null;
/** A capture of one UDP endpoint. */
export declare class RocePcap {
    #private;
    readonly file: string;
    private constructor();
    /** Opens a capture for the endpoint `address:port`; null when tracing is off. */
    static open(address: string, port: number): RocePcap | null;
    /** Records one datagram. */
    datagram(srcIp: string, srcPort: number, dstIp: string, dstPort: number, payload: Uint8Array, ipId: number): void;
    close(): void;
}
