/**
 * softrdma: a software RDMA stack for Node.js.
 *
 * Layers (top to bottom): consumer APIs (`itapi/`, `verbs/`) → RNICPI (`rnicpi/`) →
 * the RNIC engine (`rnic/`) → wire codecs (`wire/`).
 *
 * @packageDocumentation
 */
export * as itapi from './itapi/index.js';
export * as rnicpi from './provider/index.js';
export * as wire from './wire/index.js';
export * as verbs from './verbs/index.js';
// The Node-native API: openDevice, connections, listeners, memory regions, typed errors.
export * from './node/index.js';
export { tuneGcForSocketData } from './util/gc-tuning.js';
