/**
 * IT-API 2.1 over RNICPI: the implementation of every function of {@link ItApi}.
 *
 * Each function validates its arguments in the order the binding documents (handle, IA
 * catastrophe, state, flags, sizes), throws the page's `ItError` for an immediate error and
 * changes nothing in that case (except `it_lmr_modify`, which destroys the LMR on most errors,
 * as its page says), then delegates to the object modules: `evd.ts` (Event Dispatchers),
 * `ep.ts` (Endpoints, connection management, posting, S-RQs), `mem.ts` (LMRs, RMRs). Every
 * RNIC resource is reached through the IA's RNICPI `ri_ops_t` (`access.ts`).
 *
 * softrdma's Interfaces are iWARP (`IT_IWARP_TCP_TRANSPORT`). The transport-dependent calls
 * (UD Endpoints, Address Handles, UD service resolution, Atomics) answer the code of
 * `IT_API_FUNCTIONS[name].iwarpStatus` after validating the handle they are given; they are
 * reported absent in `it_ia_info_t`. An InfiniBand-transport Interface (a RoCEv2 face) would
 * implement them behind the same checks (`transportOf(ia)`).
 *
 * The functions live in one module per function group of `api.ts` (`ItFunctionGroup`):
 * `impl-ia.ts`, `impl-pz.ts`, `impl-evd.ts`, `impl-ep.ts`, `impl-cm.ts`, `impl-tdi.ts`,
 * `impl-ud.ts`, `impl-lmr.ts`, `impl-rmr.ts`, `impl-srq.ts`, `impl-dto.ts`, over the helpers they
 * share (`impl-common.ts`); this module joins them into {@link itapi}.
 *
 * @module
 */
import { type ItApi, IT_API_FUNCTION_NAMES, IT_API_FUNCTIONS } from './api.js';
import { itCm } from './impl-cm.js';
import { itDto } from './impl-dto.js';
import { itEp } from './impl-ep.js';
import { itEvd } from './impl-evd.js';
import { itIa } from './impl-ia.js';
import { itLmr } from './impl-lmr.js';
import { itPz } from './impl-pz.js';
import { itRmr } from './impl-rmr.js';
import { itSrq } from './impl-srq.js';
import { itTdi } from './impl-tdi.js';
import { itUd } from './impl-ud.js';
import { setCurrentFn } from './objects.js';
import { isItError } from './status.js';

/** Every function of the binding, by group. */
const impl: ItApi = { ...itUd, ...itIa, ...itCm, ...itEp, ...itEvd, ...itLmr, ...itDto, ...itPz, ...itRmr, ...itTdi, ...itSrq };

// =============================================================================================
// Export: every function wrapped so that its immediate errors name it
// =============================================================================================

function wrap<F extends (...a: never[]) => unknown>(name: string, fn: F, isAsync: boolean): F {
  if (isAsync) {
    return (async (...args: Parameters<F>) => {
      setCurrentFn(name);
      try {
        return await (fn as (...a: Parameters<F>) => Promise<unknown>)(...args);
      } finally {
        setCurrentFn(undefined);
      }
    }) as unknown as F;
  }
  return ((...args: Parameters<F>) => {
    setCurrentFn(name);
    try {
      return fn(...args);
    } finally {
      setCurrentFn(undefined);
    }
  }) as unknown as F;
}

/** The IT-API 2.1 implementation: all 79 functions. */
export const itapi: ItApi = Object.freeze(
  Object.fromEntries(
    IT_API_FUNCTION_NAMES.map((n) => [n, wrap(n, (impl[n] as (...a: never[]) => unknown).bind(impl), IT_API_FUNCTIONS[n].async)]),
  ) as unknown as ItApi,
);

export { isItError };
