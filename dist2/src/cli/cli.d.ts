/** The package's version (package.json sits three levels above dist/src/cli/, in the repository and in an install alike). */
export declare function version(): string;
export declare const HELP = "softrdma \u2014 a software RDMA stack (iWARP over TCP) in TypeScript\n\nUsage: softrdma <command> [options]\n       softrdma help <command>\n       softrdma --version\n\nCommands:\n  devices              list the RDMA devices and their node GUIDs (like ibv_devices)\n  devinfo              the devices and their attributes (like ibv_devinfo)\n  link                 the ports: state, transport, addresses (like rdma link)\n  rping                rdma-core's rping test, interoperable with it (-s server, -c client)\n  perf                 perftest's ib_{write,read,send,atomic}_{bw,lat}, interoperable with it\n  pingpong             rdma-core's ibv_{rc,uc,ud,srq}_pingpong over RoCEv2, interoperable with them\n  help                 show this help, or a command's\n\nRun 'softrdma help <command>' or 'softrdma <command> --help' for a command's options.\n";
export interface CliIo {
    out(s: string): void;
    err(s: string): void;
}
/** Runs the command line `args` (without the program name); resolves with the exit code. */
export declare function cli(args: readonly string[], io: CliIo): Promise<number>;
