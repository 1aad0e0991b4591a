export interface Logger {
    (fmt: string, ...args: unknown[]): void;
    readonly enabled: boolean;
    readonly namespace: string;
}
/** Returns the logger for `softrdma:<area>` (for example `logger('qp')`). */
export declare function logger(area: string): Logger;
