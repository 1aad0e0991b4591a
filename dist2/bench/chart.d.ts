/**
 * The README's chart: bandwidth against message size from the sweep rows of one run, as a
 * self-contained SVG (log₂ size axis, linear MB/s axis, one line per series).
 */
import type { BenchRow } from './harness.js';
/** The SVG, or null when the rows hold no sweep. */
export declare function bandwidthChart(rows: readonly BenchRow[], caption: string): string | null;
