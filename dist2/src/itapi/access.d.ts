import type { SoftrdmaVp } from '../provider/softrdma.js';
import type { ri_ops_t } from '../rnicpi/ops.js';
import { type ri_event_record_t } from '../rnicpi/types.js';
/** An object that receives the RNIC's affiliated asynchronous events (its `os_data`). */
export interface ItAsyncTarget {
    onRiAsync(ev: ri_event_record_t): void;
}
/** An object that owns a CQ and is told when it has completions (its `os_data`). */
export interface ItCqTarget {
    onRiCqEvent(): void;
}
/** An object told about RNIC-level events (the IAs of the RNIC). */
export interface ItRnicListener {
    onRnicEvent(ev: ri_event_record_t): void;
}
/** One RNIC of the IT-API access layer: an IT-API Interface (`it_interface_t`). */
export declare class ItDevice {
    readonly vp: SoftrdmaVp;
    /** The consumer vector (AL-serialized kernel ops). */
    readonly ops: ri_ops_t;
    /** Position in the Interface list (the RoCE Interface's CA GUID carries it). */
    readonly index: number;
    /** The completion event handler id every CQ of this device is created with. */
    cqHandlerId: number;
    /** Open IAs (and anything else that wants RNIC-level events). */
    readonly listeners: Set<ItRnicListener>;
    constructor(vp: SoftrdmaVp, 
    /** The consumer vector (AL-serialized kernel ops). */
    ops: ri_ops_t, 
    /** Position in the Interface list (the RoCE Interface's CA GUID carries it). */
    index: number);
    /** The Interface name (`it_interface_t.name`, the `it_ia_create` argument). */
    get name(): string;
}
/** The IT-API Interfaces of this process (booting the provider on first use). */
export declare function itDevices(): readonly ItDevice[];
/** The device called `name`, or undefined. */
export declare function itDevice(name: string): ItDevice | undefined;
