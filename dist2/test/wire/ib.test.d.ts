import fc from 'fast-check';
import { type IbPacket } from '../../src/wire/ib/index.js';
export declare const arbIbPacket: fc.Arbitrary<IbPacket>;
