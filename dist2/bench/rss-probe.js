/**
 * Preloaded (`node --expose-gc --import …/rss-probe.js`) into a process whose memory
 * `rss-conn.ts` watches: on an IPC message `'sample'` it runs full collections and answers with
 * `process.memoryUsage()`, so the figures are the live set, not the collector's backlog. The
 * process itself (`softrdma rping -P`) runs unmodified.
 */
const gc = globalThis.gc;
if (process.send) {
    process.on('message', (m) => {
        if (m !== 'sample')
            return;
        void (async () => {
            // Let finalizers of collected objects run between collections.
            for (let i = 0; i < 3; i++) {
                gc?.();
                await new Promise((r) => setTimeout(r, 0));
            }
            process.send?.({ memory: process.memoryUsage(), gc: gc !== undefined });
        })();
    });
    // The channel must not keep a finished process alive.
    process.channel?.unref();
}
export {};
//# sourceMappingURL=rss-probe.js.map