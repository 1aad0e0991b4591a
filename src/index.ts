/**
 * softrdma: a software RDMA stack for Node.js.
 *
 * Layers (top to bottom): consumer APIs (`itapi/`, `verbs/`) → RNICPI (`rnicpi/`) →
 * the RNIC engine (`rnic/`) → wire codecs (`wire/`).
 *
 * @packageDocumentation
 */
export * as wire from './wire/index.js';
