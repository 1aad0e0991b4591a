/** A random 32-bit unsigned integer. */
export declare function random32(): number;
/** A random 24-bit STag index candidate (0 included; the caller skips it). */
export declare function randomIndex(): number;
/** A random 8-bit STag key. */
export declare function randomOctet(): number;
