/**
 * The transports of this provider, listed once. The RNIC core knows a transport only through the
 * binder it calls when a QP is made ready (RNICPI §4.4 `llp_stream_handle` for an iWARP stream;
 * the INIT→RTR Modify QP for InfiniBand, IBTA Vol. 1 §10.3.1): each transport exports its binder
 * from its own folder, and this list hands them to the core. Nothing registers itself on import.
 *
 * Adding a transport touches its folder, this list, and the test matrix (`test/helpers`).
 *
 * @packageDocumentation
 */
import { attachIwarp } from '../iwarp/datapath.js';
import { attachLoopback, attachLoopbackIb } from '../loopback/loopback.js';
import { type IbBinder, type LlpBinder, registerIbBinder, registerLlpBinder } from '../rnic/transport.js';
import { attachRoce } from '../roce/transport.js';

/** Binders of LLP streams, asked in order (each returns null for a handle it does not know). */
export const LLP_TRANSPORTS: readonly LlpBinder[] = [attachIwarp, attachLoopback];

/** Binders of InfiniBand links, by the RNIC's link kind (`RnicConfig.ibLink`, else its transport). */
export const IB_TRANSPORTS: Readonly<Record<string, IbBinder>> = { rocev2: attachRoce, loopback: attachLoopbackIb };

/** Hands the list to the core; called before any RNIC of this provider is made. Idempotent. */
export function installTransports(): void {
  for (const b of LLP_TRANSPORTS) registerLlpBinder(b);
  for (const [kind, b] of Object.entries(IB_TRANSPORTS)) registerIbBinder(kind, b);
}
