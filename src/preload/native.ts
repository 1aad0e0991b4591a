/**
 * The daemon's addon (native/libsoftrdma/daemon/addon.c, built with libsoftrdma.so into
 * build/Release/softrdma_preload.node): socket pairs, file descriptors passed over a unix
 * socket (SCM_RIGHTS), and a client's memfd mapped shared as an ArrayBuffer. Node does none of
 * these; without the addon the daemon answers the calls that need it with EOPNOTSUPP.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { logger } from '../util/log.js';

const log = logger('daemon');

export interface PreloadAddon {
  /** [the daemon's end (non-blocking), the end to hand to the client]. */
  socketPair(): [number, number];
  /** Sends `bytes` with `fd` attached; bytes sent, or -errno. */
  sendFd(sock: number, bytes: Buffer, fd: number): number;
  /** One byte and the fd sent with it: the fd, or -errno (-EAGAIN: nothing yet). */
  recvFd(sock: number): number;
  /** The first `length` bytes of a regular file or memfd, mapped shared; null when shorter. */
  mapShared(fd: number, length: number): ArrayBuffer | null;
  /** A non-blocking write: bytes written, or -errno. */
  write(fd: number, bytes: Buffer): number;
  close(fd: number): void;
}

let cached: PreloadAddon | null | undefined;

/** The addon, or null (not built: no compiler or no Node headers at install). */
export function preloadAddon(): PreloadAddon | null {
  if (cached !== undefined) return cached;
  cached = null;
  const require = createRequire(import.meta.url);
  // dist/src/preload/ (compiled) or src/preload/ (run from source).
  for (const rel of ['../../../build/Release/softrdma_preload.node', '../../build/Release/softrdma_preload.node']) {
    const p = new URL(rel, import.meta.url);
    if (!existsSync(p)) continue;
    try {
      cached = require(p.pathname) as PreloadAddon;
    } catch (e) {
      log('softrdma_preload.node did not load: %s', (e as Error).message);
    }
    break;
  }
  return cached;
}
