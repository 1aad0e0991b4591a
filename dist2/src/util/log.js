/**
 * Namespaced debug logging (`DEBUG=softrdma:*`), built on the `debug` package.
 *
 * Call sites prefix object ids themselves (`QP[17] RTS→CLOSING`), like siw's `siw_dbg_qp`.
 * Hot paths must test `log.enabled` before formatting anything, so that a disabled logger
 * costs one property read.
 */
import createDebug from 'debug';
/** Returns the logger for `softrdma:<area>` (for example `logger('qp')`). */
export function logger(area) {
    return createDebug(`softrdma:${area}`);
}
//# sourceMappingURL=log.js.map