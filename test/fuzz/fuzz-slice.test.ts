/**
 * The seeded slice of `npm run fuzz` that `npm test` runs: every decoder with a few
 * thousand fast-check inputs, a few hundred mutated streams against a live engine per transport,
 * and every input that ever found a bug (test/fuzz/regressions) replayed against its decoder.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DECODERS, fuzzDecoder, fuzzIwarpStreams, fuzzRoceStreams, loadRegressions, runDecoder } from './harness.js';

const SEED = 0x5eed17;
const RUNS = 3_000;
const STREAMS = 300;

describe('fuzz slice (seeded)', { timeout: 300_000 }, () => {
  for (const t of DECODERS) {
    it(`${t.name}: ${RUNS} inputs, only its own protocol error escapes`, () => {
      const r = fuzzDecoder(t, RUNS, SEED, false);
      assert.equal(r.crashes, 0, `${r.error} on input ${r.counterexample}`);
      assert.equal(r.runs, RUNS);
    });
  }

  it('every input kept as a regression case is handled by its decoder now', () => {
    const cases = loadRegressions();
    assert.ok(cases.length >= 2, 'the regression cases are found');
    for (const c of cases) {
      const t = DECODERS.find((d) => d.name === c.target);
      assert.ok(t, `unknown target ${c.target}`);
      assert.doesNotThrow(
        () => runDecoder(t, Uint8Array.from(Buffer.from(c.input, 'hex')), c.bit),
        `${c.target} ${c.input} (found: ${c.found})`,
      );
    }
  });

  it(`live iWARP engine: ${STREAMS} mutated FPDU streams, nothing escapes, memory outside the region untouched, every receive completes`, async () => {
    const r = await fuzzIwarpStreams(STREAMS, SEED);
    assert.deepEqual(r.failures, []);
    assert.equal(r.streams, STREAMS);
  });

  it(`live RoCEv2 engine: ${STREAMS} bursts of mutated packets over UDP, nothing escapes, memory outside the region untouched`, async () => {
    const r = await fuzzRoceStreams(STREAMS, SEED);
    assert.deepEqual(r.failures, []);
    assert.ok(r.qps > 1);
  });
});
