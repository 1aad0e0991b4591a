import { type BenchSection } from './harness.js';
export declare const nodeApiSection: BenchSection;
