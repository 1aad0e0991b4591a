/** The last verbs / rdma_cm failure in words (`softrdmaLastError().message`). */
export declare function lastError(): string;
/**
 * One line for a connection attempt to `peer` ("ADDR:PORT") that ended in `ev` (or in nothing)
 * instead of ESTABLISHED: what happened, the errno by name, and a hint.
 */
export declare function connectFailure(ev: {
    event: number;
    status: number;
} | null, peer: string): string;
