/**
 * The wire layer: pure codecs for MPA (RFC 5044/6581), DDP (RFC 5041), RDMAP
 * (RFC 5040/7306) and Terminate messages, CRC32C, a streaming FPDU deframer and a pcap writer;
 * and, under `ib`, the InfiniBand transport headers of RoCEv2 (IBTA Vol. 1 ch. 9, Annex A17).
 *
 * @packageDocumentation
 */
export * from './crc32c.js';
export * from './ddp.js';
export * from './deframer.js';
export * from './errors.js';
/** The InfiniBand transport codecs RoCEv2 carries (BTH, extension headers, opcodes, PSN, ICRC). */
export * as ib from './ib/index.js';
export * from './mpa.js';
export * from './pcap.js';
export * from './rdmap.js';
export * from './terminate.js';
