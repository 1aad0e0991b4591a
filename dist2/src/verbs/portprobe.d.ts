/**
 * True when `port` is already listened on at `host` (or at a wildcard covering it).
 * `host` undefined = the wildcard. Port 0 is never busy.
 *
 * A listener with no host is bound synchronously by Node (dual-stack `::`, else `0.0.0.0`); it
 * fails exactly when some address of the host holds the port. For a named host that is only a
 * hint — another address may hold the port while `host` is free, which the kernel allows — so on
 * Linux /proc/net/tcp{,6} decides; elsewhere the port is taken to be busy.
 */
export declare function tcpPortBusy(host: string | undefined, port: number): boolean;
