/**
 * Namespaced debug logging (`DEBUG=softrdma:*`), built on the `debug` package.
 *
 * Call sites prefix object ids themselves (`QP[17] RTS→CLOSING`), like siw's `siw_dbg_qp`.
 * Hot paths must test `log.enabled` before formatting anything, so that a disabled logger
 * costs one property read.
 */
import createDebug from 'debug';

export interface Logger {
  (fmt: string, ...args: unknown[]): void;
  readonly enabled: boolean;
  readonly namespace: string;
}

/** Returns the logger for `softrdma:<area>` (for example `logger('qp')`). */
export function logger(area: string): Logger {
  return createDebug(`softrdma:${area}`) as unknown as Logger;
}
