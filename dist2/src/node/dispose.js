/**
 * `Symbol.dispose` / `Symbol.asyncDispose` (TC39 explicit resource management, TypeScript 5.2
 * `using` / `await using`). Node ≥ 20.4 has both; on an older Node they are created here the way
 * Node defines them (`Symbol.for('nodejs.dispose')`, `Symbol.for('nodejs.asyncDispose')`), so
 * that TypeScript's downlevelled `await using` finds the same symbol as the classes below.
 */
const S = Symbol;
if (typeof S.dispose !== 'symbol')
    Object.defineProperty(Symbol, 'dispose', { value: Symbol.for('nodejs.dispose') });
if (typeof S.asyncDispose !== 'symbol')
    Object.defineProperty(Symbol, 'asyncDispose', { value: Symbol.for('nodejs.asyncDispose') });
export {};
//# sourceMappingURL=dispose.js.map