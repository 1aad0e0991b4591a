/**
 * The interop suites' one retry: a case that fails is run once more (each case boots its own
 * guest, whose start-up is the usual cause), and every retry is printed as a `RETRY: NAME: …`
 * line that the test runners (scripts/run-tests.mjs, scripts/test-interop.mjs) collect into
 * their summary, so that a flaky case shows as flaky rather than as passed.
 */
export async function retryOnce(name: string, body: () => Promise<void>): Promise<void> {
  try {
    await body();
  } catch (e) {
    console.log(`RETRY: ${name}: the first attempt failed: ${(e as Error).message.split('\n')[0]}`);
    await body();
  }
}
