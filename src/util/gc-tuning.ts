/**
 * One V8 setting for processes that receive socket data at high rates.
 *
 * Node hands every socket read to JavaScript in a fresh ArrayBuffer (64 KiB at a time on a fast
 * TCP stream), and V8 frees these in its young-generation collection. In the V8 of Node 20, the
 * freed octets are subtracted from the process's external-memory count by a background task
 * (concurrent ArrayBuffer sweeping), after the check that follows each young-generation
 * collection. That check counts the external memory allocated since the last full collection
 * against the old generation's limit, so it still sees about 32 MiB of dead buffers. The check
 * applies only above 8 MiB of old generation (any process with the stack loaded), and then it
 * can find no room left and start a full mark-compact after a young-generation collection. How
 * often depends on how close the old generation sits to its limit: in a 1 MiB RDMA Write sink
 * at 1 GB/s, from a few per run to one after most young collections, whose marking threads take
 * the CPU the peer process needs. A plain socket sink was not seen to meet it.
 *
 * Sweeping ArrayBuffers synchronously (`--no-concurrent-array-buffer-sweeping`) makes the count
 * exact at the check, and the full collections stop; the sweep itself is a list walk over the
 * dead buffers, done once per young-generation collection.
 *
 * The `softrdma` command applies it at start. A program that uses the package as a library and
 * sees the full collections (`node --trace-gc`) may call {@link tuneGcForSocketData} once, early;
 * a light process that does not see them pays for the synchronous sweep and gains nothing.
 * `SOFTRDMA_GC_TUNING=0` leaves V8 as it is.
 *
 * @packageDocumentation
 */
import process from 'node:process';
import { setFlagsFromString } from 'node:v8';
import { ENV_GC_TUNING, switchFromEnv } from './env.js';

/** The V8 flag, and the V8 major versions it is applied on (checked on V8 11, Node 20). */
const FLAG = '--no-concurrent-array-buffer-sweeping';
const V8_MIN = 9;
const V8_MAX = 13;

let applied: boolean | undefined;

/**
 * Applies the setting described in the module documentation, once. Returns whether it is in
 * effect: false when `SOFTRDMA_GC_TUNING=0`, or on a V8 not known to have the flag (an unknown
 * flag would only print an error).
 */
export function tuneGcForSocketData(): boolean {
  if (applied !== undefined) return applied;
  const major = Number.parseInt(process.versions.v8.split('.')[0] ?? '', 10);
  applied = switchFromEnv(ENV_GC_TUNING) !== false && major >= V8_MIN && major <= V8_MAX;
  if (applied) setFlagsFromString(FLAG);
  return applied;
}
