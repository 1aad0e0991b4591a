/**
 * The seeded fault hook, shared by every transport under test; it lives in `src/util/` so the
 * datagram transports (RoCEv2) use the same one as the loopback.
 */
export * from '../util/fault-hook.js';
