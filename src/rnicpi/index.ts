/**
 * RNICPI 1.0 surface (The Open Group C054, 2005): return codes, data types, the provider
 * function table `ri_ops_t`, SVC/SYS interfaces and the provider registry: the specification
 * only. The softrdma provider and the access layer that loads it are in src/provider/
 * (`softrdma/rnicpi` exports both).
 *
 * Summary table and semantic rules: `docs/rnicpi-surface.md`; naming decisions:
 * `docs/spec-notes.md` (section "RNICPI").
 *
 * @packageDocumentation
 */
export * from './status.js';
export * from './types.js';
export * from './ops.js';
export * from './registry.js';
export * from './gid.js';
