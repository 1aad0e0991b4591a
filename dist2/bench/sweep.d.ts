import { type BenchSection } from './harness.js';
export declare const sweepSection: BenchSection;
export declare const msgRateSection: BenchSection;
export declare const memorySection: BenchSection;
export declare const scaleSection: BenchSection;
