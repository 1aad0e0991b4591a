import type { RdmapHeader } from '../../src/wire/rdmap.js';
export declare function referenceDecode(buf: Uint8Array): {
    header: RdmapHeader;
    headerLength: number;
};
