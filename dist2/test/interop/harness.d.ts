/**
 * Shared plumbing of the interop suite: where the kernel-peer harness is, the skip rules, child
 * processes with line capture, host-side commands in the harness's netns, and the tshark check
 * of the pcaps softrdma writes (`SOFTRDMA_PCAP`).
 *
 * The harness is the repository's own copy, `test/interop/kernel-peer/` (setup.sh builds the
 * guest from Debian packages; `scripts/test-interop.mjs` runs it before the suite), unless
 * `KERNEL_PEER_DIR` names another. Without root, without the harness, or without a built guest
 * image the tests skip with the reason.
 */
import { type ChildProcess } from 'node:child_process';
export declare const repo: string;
export declare const cli: string;
export declare const HOST_IP = "192.168.77.1";
export declare const GUEST_IP = "192.168.77.2";
/** The harness directory, or the reason why the tests cannot run. */
export declare function harness(): {
    dir: string;
} | {
    skip: string;
};
export type Proc = {
    child: ChildProcess;
    lines: string[];
    done: Promise<number>;
    wait: (re: RegExp, ms: number) => Promise<boolean>;
};
/**
 * Where every process of the suite leaves its whole output (the transcripts): one directory per
 * test file under `SOFTRDMA_INTEROP_TRANSCRIPTS` (default: `softrdma-interop-transcripts` in the
 * OS temporary directory), one file per process, numbered in start order, named after what ran
 * (`guest` for run-guest.sh: the rdma-core side of every job of the case, with its START/END
 * markers; `host-…` for softrdma's side). The directory is printed when the test file ends.
 */
export declare const transcriptDir: string;
/** Starts a child and collects its stdout+stderr lines and its exit status (128+ on a signal). */
export declare function run(cmd: string, args: string[], cwd: string, env?: NodeJS.ProcessEnv): Proc;
export declare function kill(p: Proc | null, sig?: NodeJS.Signals): void;
/** Boots a guest running `script` (dash), output streamed into the returned Proc. */
export declare function guest(dir: string, script: string, limitS?: number): Proc;
/** Starts a host-side softrdma CLI command in the netns; `pcap` turns on SOFTRDMA_PCAP. */
export declare function hostStart(dir: string, args: string[], env?: NodeJS.ProcessEnv): Proc;
/** A host-side softrdma CLI run in the netns, with a time limit (killed with SIGTERM: rc 128+). */
export declare function host(dir: string, args: string[], ms: number, env?: NodeJS.ProcessEnv): Promise<{
    rc: number;
    lines: string[];
}>;
export declare function show(title: string, tag: string, lines: string[]): void;
/** The first and last `ping data:` lines (the transcript), and their number. */
export declare function pings(lines: string[]): {
    n: number;
    ends: string[];
};
/** Lines of one tagged guest job (`<tag>| …`, as `sed 's/^/<tag>| /'` prints them) and its `END rc=N`. */
export declare function tagged(lines: string[], tag: string): {
    rc: number;
    lines: string[];
};
/** A fresh directory for one case's pcaps. */
export declare function pcapDir(name: string): string;
export declare const hasTshark: boolean;
/**
 * The wire check: tshark decodes every pcap in `dir` as MPA/DDP/RDMAP with no malformed frame,
 * no error-level expert info and no bad CRC; with `crc`, at least one good CRC32. Returns the
 * failures (empty = pass) and a summary line per file.
 */
export declare function wireCheck(dir: string, opts?: {
    crc?: boolean;
}): {
    failures: string[];
    summary: string[];
};
/**
 * The wire check of RoCEv2 captures (`SOFTRDMA_PCAP` on the RoCE device: Ethernet/IPv4/UDP
 * 4791 frames): tshark decodes every pcap in `dir` as RRoCE (the `infiniband` dissector) with no
 * malformed frame and no error-level expert info, and at least one BTH. Returns the failures
 * (empty = pass) and a summary line per file (packets per opcode, AETH NAKs).
 */
export declare function wireCheckRoce(dir: string): {
    failures: string[];
    summary: string[];
    ops: Map<string, number>;
};
/**
 * The wire check of RoCEv2 captures: tshark decodes every pcap in `dir` as RRoCE (UDP 4791)
 * with no malformed frame and no error-level expert info; there are CM MADs and data packets.
 * (Wireshark's infiniband dissector shows the ICRC but does not verify it; our receive path
 * does, and the peer dropping a bad one would show as a failed run.) Returns the failures and
 * a summary per file.
 */
export declare function roceWireCheck(dir: string, opts?: {
    needData?: boolean;
    needCm?: boolean;
}): {
    failures: string[];
    summary: string[];
};
/** A host-side `node SCRIPT ARGS` in the netns (examples), with a time limit (SIGTERM: rc 128+). */
export declare function hostNode(dir: string, script: string, args: string[], ms: number, env?: NodeJS.ProcessEnv): Promise<{
    rc: number;
    lines: string[];
}>;
