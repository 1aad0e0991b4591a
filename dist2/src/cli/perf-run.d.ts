import type { CliIo } from './cli.js';
export type Verb = 'write' | 'read' | 'send' | 'atomic';
/** perftest's `-A`: the atomic operation of ib_atomic_bw / ib_atomic_lat. */
export type AtomicType = 'CMP_AND_SWAP' | 'FETCH_AND_ADD';
/** Everything a run needs, after perftest's defaults and `force_dependecies`. */
export interface PerfParams {
    verb: Verb;
    lat: boolean;
    server: boolean;
    /**
     * `-d`: the device; with rdma_cm every id uses it (rdmaUseDevice); none: rdma_cm's choice
     * (SOFTRDMA_DEVICE, else softrdma0), without -R the first device.
     */
    dev?: string;
    /**
     * `-R`: connect with rdma_cm. Without it an InfiniBand (RoCEv2) device uses perftest's TCP
     * exchange and `ibv_modify_qp` (perf-eth.ts); an iWARP device always uses rdma_cm (it has no
     * other way to connect).
     */
    rdmaCm: boolean;
    /** `-x`: the source GID index (-1: perftest's choice, the first IPv4-mapped GID). */
    gidIndex: number;
    /** perftest's -m as an `ibv_mtu` (1 = 256 … 5 = 4096); 0: the port's active MTU. */
    mtu: number;
    /** Client: the server's address. */
    addr: string;
    /** Server: the address to bind. */
    bind: string;
    port: number;
    /** Message size; the buffer size with `all` (8 MiB). */
    size: number;
    all: boolean;
    /** Iterations per size and QP (0 in duration mode). */
    iters: number;
    /** Duration mode: seconds (0: iteration mode). */
    duration: number;
    margin: number;
    txDepth: number;
    rxDepth: number;
    qps: number;
    cqMod: number;
    /** Work requests per `ibv_post_send` (perftest `--post_list`); 1: one at a time. */
    postList: number;
    outReads: number;
    /** Atomic tests: the operation (perftest default FETCH_AND_ADD). */
    atomicType?: AtomicType;
    noPeak: boolean;
    gbits: boolean;
    json: boolean;
    busyPoll: boolean;
    /**
     * bw tests (`--perform_warm_up`): one untimed pass of the first size before the measured ones,
     * so the figure is steady state (V8 has compiled the hot paths, TCP windows have grown).
     */
    warmUp: boolean;
    /** Show a progress line (stdout is a terminal). */
    progress: boolean;
    /**
     * softrdma's `--dump-buffer=FILE`: after the run, the data buffer (both halves: local
     * sources and Read sinks, then the areas the peer targets) is written to FILE, so that a
     * test can check what the peer placed or returned.
     */
    dumpFile?: string;
    /** Called with the bound port once the server listens. */
    onListening?: (port: number) => void;
}
/** perftest's `MAX_SIZE` and the `-a` sizes 2^1 … 2^23. */
export declare const MAX_SIZE = 8388608;
export declare function allSizes(): number[];
/** One end of a run. */
export declare class PerfRun {
    private readonly p;
    private readonly out;
    private readonly ch;
    private readonly pump;
    /** The out-of-band channel: {@link cm} with rdma_cm, {@link eth} without. */
    private ctl;
    private cm;
    private eth;
    /** Without rdma_cm: the device opened for the run. */
    private ibCtx;
    /** Without rdma_cm: the QPs have been moved to RTR (and RTS). */
    private ibConnected;
    /** The source GID index advertised and used. */
    private gidIndex;
    /** iWARP `ib_send_bw`: receive credits (perftest's `send_rcredit`; iWARP has no RNR). */
    private credits;
    private data;
    private listenId;
    private remVersion;
    private remVersionStr;
    private cycle;
    private cacheLine;
    private mtu;
    private my;
    private rem;
    private devName;
    private gid;
    private readonly wc;
    private readonly wc1;
    private lastBw;
    private dataDone;
    constructor(p: PerfParams, io: CliIo);
    private get client();
    private get name();
    /** Stops the loops when the peer has gone away. */
    private readonly waiter;
    /** Runs the whole test; resolves with the exit status. */
    run(): Promise<number>;
    /** `establish_connection` with `-R`: the rdma_cm control connection. */
    private cmConnect;
    /**
     * `establish_connection` without `-R` on an InfiniBand device: open it, pick the GID index
     * (`-x`, else perftest's `get_best_gid_index`: the first IPv4-mapped GID), then the TCP side
     * channel (perf-eth.ts).
     */
    private ethConnect;
    /** The device of the data connections. */
    private devCtx;
    /** P1–P4: version, cycle buffer, cache line, MTU (`exchange_versions`, `check_sys_data`, `check_mtu`). */
    private exchangeSysData;
    /** `create_rdma_cm_connection`: handshake, the data connections on the same port, handshake. */
    private connectData;
    /** IRD/ORD of the data connections: `out_reads` for read tests, 0 otherwise. */
    private get rdAtom();
    /** `rdma_cm_client_connection`: up to 10 attempts, 100 ms apart (the server may not listen yet). */
    private clientConnectData;
    private tryConnectData;
    /** `rdma_cm_server_connection`: accept `num_qps` requests (not waiting for ESTABLISHED), then close the listener. */
    private serverAcceptData;
    /** `set_up_connection`: what each QP advertises. */
    private setUpConnection;
    /** `ctx_print_test_info`. */
    private printTestInfo;
    /** `ctx_print_pingpong_data`. */
    private printDest;
    private printLocal;
    /** H×q with the remote lines printed. */
    private handshakeRemote;
    /**
     * H×q (keys only): the first key exchange of every test. Without rdma_cm, `ctx_connect`
     * follows it: each QP to RTR with the peer's keys, and to RTS on the client (the only sender
     * of a bandwidth test) and on both ends of a latency test.
     */
    private handshakeAll;
    /** `ctx_close_connection`: a last handshake; without rdma_cm, then "done" and close. */
    private closeConnection;
    private handshake0;
    private sizes;
    private bwRow;
    private latRow;
    private bwHeader;
    private latHeader;
    /** ib_write_bw / ib_read_bw (docs §2.7). */
    private rdmaBw;
    /** ib_send_bw (docs §2.7, §2.8.4: iWARP receive credits). */
    private sendBw;
    /** ib_write_lat: the server writes first; no close handshake. */
    private writeLat;
    /** ib_read_lat: only the client runs; the server goes straight to the close handshake. */
    private readLat;
    /** ib_send_lat: receives posted, then a handshake, before each size. */
    private sendLat;
    /** `xchg_bw_reports`: size, iters (8 octets if the peer is ≥ 5.33, else 4), peak, average, rate. */
    private xchgBwReport;
    private post;
    /** Waits for one completion on `cq` (blocking or busy per mode) and checks its status. */
    private one;
    /** `ctx_set_recv_wqes`: `rx_depth` receives of `size` per QP in the second half of the buffer. */
    private postRecvs;
    private postRecv;
    /** `run_iter_bw` (client, all three verbs): tx_depth window, address cycling, CQ moderation, credits for Send. */
    private runIterBw;
    /**
     * `run_iter_bw_server` (ib_send_bw): re-post a receive per completion while the total stays
     * ≤ iters, RDMA-Write the receive count to the peer's credit slot every `rx_depth / 3`
     * receives, time from the first receive to the last.
     */
    private runIterBwServer;
    /** A softrdma peer's MPA Responder sends nothing before our first FPDU: give it one. */
    private zeroLengthWrite;
    /**
     * `run_iter_lat_write`: each side writes `size` bytes whose last byte is its iteration
     * number, then spins on the last byte of its own target area until the peer's write of the
     * same number lands; the server posts first. An inbound Write raises no completion, so the
     * wait on memory always polls (yielding to the event loop between looks).
     */
    private runIterLatWrite;
    /** The work-request opcode of the test. */
    private opcode;
    /**
     * The remote half of QP `i`'s WR: `rdma` for Writes and Reads; for atomics the same object is
     * also `atomic` (perftest: compare 0 / swap 0 for CMP_AND_SWAP, add 1 for FETCH_AND_ADD), so
     * address cycling moves both.
     */
    private remoteOf;
    /** `run_iter_lat` (ib_read_lat and ib_atomic_lat, client): one signaled RDMA Read or atomic at a time. */
    private runIterLatRead;
    /**
     * `run_iter_lat_send`: strict ping-pong, the client sends first, the server first waits for a
     * receive; receives are re-posted while `received + rx_depth ≤ iters`; every Send is signaled
     * (CQ moderation is `tx_depth` = 1) and waited for.
     */
    private runIterLatSend;
    /**
     * After the last control exchange: close every data connection gracefully and wait (briefly)
     * for DISCONNECTED — perftest 4.5's client waits, newer servers close and wait too, so both
     * roles close — then close the control connection (perftest just exits: its peer sees the
     * TCP connection end, which it expects at this point).
     */
    private teardown;
    private waitDisconnected;
    /** Best-effort cleanup after a failure (the process exits next). */
    abort(): void;
}
