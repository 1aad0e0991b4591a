/**
 * The InfiniBand transport-layer wire codecs RoCEv2 carries over UDP (IBTA Vol. 1 chapter 9,
 * Annex A17): BTH, the extension headers, the opcode table, PSN arithmetic, the ICRC and whole
 * packets. Pure: no I/O.
 *
 * @packageDocumentation
 */
export * from './aeth.js';
export * from './atomic-eth.js';
export * from './bth.js';
export * from './constants.js';
export * from './deth.js';
export { IbDropReason, IbWireError, isIbWireError } from './errors.js';
export * from './gid-address.js';
export * from './grh.js';
export * from './icrc.js';
export * from './immdt.js';
export * from './opcodes.js';
export * from './packet.js';
export * from './psn.js';
export * from './reth.js';
