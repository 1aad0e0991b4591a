/**
 * The IT-API access layer: boots the RNICPI provider for the IT-API face and routes its upcalls.
 *
 * IT-API is a consumer of RNICPI like the verbs face (`src/verbs/device.ts`): this module creates
 * an access layer, loads the "softrdma" provider, opens each attached RNIC (`ri_rnic_open`),
 * registers the RNIC's one asynchronous event handler and one completion event handler
 * (`ri_async_set_event_handler`, `ri_cq_set_event_handler`), and lets every `it_ia_create` take
 * its own RNIC handle (`ri_rnic_get_hdl`). Every resource call of the IT-API layer then goes
 * through that attachment's `ri_ops_t`.
 *
 * The IT-API face loads its own provider instance (its own RNIC engines): the iWARP Interface
 * `softrdma0` and the RoCE Interface `softroce0` (`IT_IB_TRANSPORT`, `roce.ts`). An IT-API
 * Interface and an ibverbs device of the same process are two RNICs that talk over the wire like
 * any two peers; on RoCE they share the process's UDP endpoints (dispatch by QPN, process-wide on
 * RoCE RNICs) and the port's CM on QP1 (`src/ibcm/rdma-ip.ts`).
 *
 * Upcalls are routed by `os_data` (RNICPI returns it by identity): CQ events to the DTO SEVD that
 * owns the CQ, QP/SRQ/CQ affiliated events to the Endpoint, S-RQ or SEVD object, RNIC-level
 * catastrophes to every IA open on the RNIC.
 *
 * @module
 */
import { createAccessLayer, type RiAccessLayer, riLoadProvider } from '../provider/access-layer.js';
import type { SoftrdmaProviderInstance, SoftrdmaVpInfo } from '../provider/softrdma.js';
import type { ri_ops_t } from '../rnicpi/ops.js';
import { RiRet } from '../rnicpi/status.js';
import { RiPblMode, type ri_event_record_t } from '../rnicpi/types.js';
import { logger } from '../util/log.js';

const log = logger('itapi');

/** An object that receives the RNIC's affiliated asynchronous events (its `os_data`). */
export interface ItAsyncTarget {
  onRiAsync(ev: ri_event_record_t): void;
}

/** An object that owns a CQ and is told when it has completions (its `os_data`). */
export interface ItCqTarget {
  onRiCqEvent(): void;
}

/** The CQ `os_data` convention of `src/ibcm/ri-gsi.ts` (QP1's CQ): told through `onCompletionEvent`. */
interface GsiCqTarget {
  onCompletionEvent(): void;
}

/** An object told about RNIC-level events (the IAs of the RNIC). */
export interface ItRnicListener {
  onRnicEvent(ev: ri_event_record_t): void;
}

/** One RNIC of the IT-API access layer: an IT-API Interface (`it_interface_t`). */
export class ItDevice {
  /** The completion event handler id every CQ of this device is created with. */
  cqHandlerId = 0;
  /** Open IAs (and anything else that wants RNIC-level events). */
  readonly listeners = new Set<ItRnicListener>();
  constructor(
    readonly vp: SoftrdmaVpInfo,
    /** The consumer vector (AL-serialized kernel ops). */
    readonly ops: ri_ops_t,
    /** Position in the Interface list (the RoCE Interface's CA GUID carries it). */
    readonly index: number,
  ) {}
  /** The Interface name (`it_interface_t.name`, the `it_ia_create` argument). */
  get name(): string {
    return this.vp.name;
  }
}

interface State {
  al: RiAccessLayer;
  provider: SoftrdmaProviderInstance;
  devices: ItDevice[];
}

let state: State | null = null;

function isAsyncTarget(x: unknown): x is ItAsyncTarget {
  return typeof x === 'object' && x !== null && typeof (x as ItAsyncTarget).onRiAsync === 'function';
}
function isCqTarget(x: unknown): x is ItCqTarget {
  return typeof x === 'object' && x !== null && typeof (x as ItCqTarget).onRiCqEvent === 'function';
}
function isGsiCqTarget(x: unknown): x is GsiCqTarget {
  return typeof x === 'object' && x !== null && typeof (x as GsiCqTarget).onCompletionEvent === 'function';
}

function boot(): State {
  if (state) return state;
  const al = createAccessLayer();
  const provider = riLoadProvider<SoftrdmaProviderInstance>(al, 'softrdma', { rnics: 1, roce: 1 });
  const devices: ItDevice[] = [];
  for (const att of al.attachments()) {
    const vp = att.vp_hdl as SoftrdmaVpInfo;
    const dev = new ItDevice(vp, att.ops, devices.length);
    const opened = att.ops.ri_rnic_open(vp, RiPblMode.PAGE_LIST_MODE, dev);
    if (opened.status !== RiRet.SUCCESS) throw new Error(`ri_rnic_open(${vp.name}): ${RiRet[opened.status]}`);
    att.ops.ri_async_set_event_handler(vp, (_os, ev) => {
      const target = 'resource_os_data' in ev.event_data ? ev.event_data.resource_os_data : null;
      if (isAsyncTarget(target)) target.onRiAsync(ev);
      else for (const l of [...dev.listeners]) l.onRnicEvent(ev);
    });
    const h = att.ops.ri_cq_set_event_handler(vp, 0, (_os, cqOs) => {
      if (isCqTarget(cqOs)) cqOs.onRiCqEvent();
      else if (isGsiCqTarget(cqOs)) cqOs.onCompletionEvent();
    });
    if (h.status !== RiRet.SUCCESS) throw new Error(`ri_cq_set_event_handler: ${RiRet[h.status]}`);
    dev.cqHandlerId = h.handler_id;
    devices.push(dev);
    log('IT-API interface %s ready (cq handler %d)', dev.name, dev.cqHandlerId);
  }
  state = { al, provider, devices };
  return state;
}

/** The IT-API Interfaces of this process (booting the provider on first use). */
export function itDevices(): readonly ItDevice[] {
  return boot().devices;
}

/** The device called `name`, or undefined. */
export function itDevice(name: string): ItDevice | undefined {
  return itDevices().find((d) => d.name === name);
}
