import net from 'node:net';
import { RdmapOpcode, type ReadRequestHeader } from '../../src/wire/rdmap.js';
import { type TerminateHeader } from '../../src/wire/terminate.js';
export declare class RawPeer {
    readonly sock: net.Socket;
    readonly fpdus: Uint8Array[];
    closed: boolean;
    private deframer;
    private pre;
    private waiters;
    private constructor();
    private wake;
    private waitFor;
    /** Connects as MPA Initiator (revision 2, IRD/ORD as given, no CRC, no markers). */
    static connect(port: number, opts?: {
        crc?: boolean;
        ird?: number;
        ord?: number;
    }): Promise<RawPeer>;
    crc: boolean;
    /** The MPA Reply's exact bytes. */
    reply: Uint8Array;
    sendUlpdu(ulpdu: Uint8Array): void;
    write(stag: number, to: bigint, payload: Uint8Array, last?: boolean): void;
    send(msn: number, payload: Uint8Array, opcode?: RdmapOpcode, invStag?: number, mo?: number): void;
    readRequest(msn: number, rr: ReadRequestHeader): void;
    /** Waits for a Terminate message from the victim and decodes it. */
    terminate(ms?: number): Promise<TerminateHeader>;
    waitClosed(ms?: number): Promise<void>;
}
