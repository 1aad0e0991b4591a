import fc from 'fast-check';
import { type DdpHeader } from '../../src/wire/ddp.js';
export declare const arbDdpHeader: fc.Arbitrary<DdpHeader>;
