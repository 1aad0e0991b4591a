import type { CliIo } from './cli.js';
export declare const DEVICES_HELP = "Usage: softrdma devices [--json]\n\nLists the softrdma RDMA devices with their node GUIDs, as ibv_devices does.\n\nOptions:\n      --json           one JSON array of { device, node_guid }\n  -h, --help           show this help\n";
export declare const LINK_HELP = "Usage: softrdma link [show] [DEV[/PORT]] [--json]\n\nShows each port of the softrdma devices as 'rdma link' does: state, physical state,\ntransport, and the network devices and addresses it answers on. softrdma's device is not tied\nto one netdev: it serves every running interface of the host (iWARP runs over the host's TCP).\n\nOptions:\n      --json           one JSON array, like 'rdma -j link'\n  -h, --help           show this help\n";
export declare function devicesCmd(argv: readonly string[], io: CliIo): number;
export declare function linkCmd(argv: readonly string[], io: CliIo): number;
