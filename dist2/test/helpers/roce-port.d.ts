/** A UDP port free on 127.0.0.1 now (the probe socket is closed before it returns). */
export declare function freeUdpPort(): Promise<number>;
/**
 * Sets `SOFTRDMA_ROCE_PORT` to a free port (unless already set) and returns it; the device's
 * addresses are `SOFTRDMA_ROCE_ADDRS` (default here: 127.0.0.1 alone, so nothing binds beyond
 * loopback).
 */
export declare function useEphemeralRocePort(addrs?: string): Promise<number>;
