/**
 * The package's `softrdma/rnicpi` entry: the RNICPI 1.0 surface (src/rnicpi/, the
 * specification's types, codes, ops table and registry) together with what implements it here:
 * the softrdma provider over the RNIC engine and the minimal access layer that loads providers.
 *
 * @packageDocumentation
 */
export * from '../rnicpi/index.js';
export * from './access-layer.js';
export { createSoftrdmaVp, SOFTRDMA_PROVIDER_NAME, softrdmaProviderFactory, softrdmaTerminateDomain } from './softrdma.js';
