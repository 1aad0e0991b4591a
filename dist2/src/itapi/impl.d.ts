import { type ItApi } from './api.js';
import { isItError } from './status.js';
/** The IT-API 2.1 implementation: all 79 functions. */
export declare const itapi: ItApi;
export { isItError };
