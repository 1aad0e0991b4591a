/**
 * softrdma for Node developers: devices, listeners, connections and registered memory as objects,
 * with promises, async iterators, AbortSignal, typed errors and `await using`. Built only on the
 * verbs/rdma_cm face (`softrdma/verbs`); every object exposes its verbs handles.
 *
 * ```ts
 * import { openDevice } from 'softrdma';
 * await using dev = openDevice();                       // iWARP; { transport: 'rocev2' } for RoCE
 * await using conn = await dev.connect({ host: '127.0.0.1', port: 7471 });
 * await conn.send(Buffer.from('hello'));
 * ```
 *
 * @module
 */
import './dispose.js';

export {
  Connection,
  type ConnectionOptions,
  type ConnectionStats,
  type ConnectOptions,
  type LocalBuffer,
  type Message,
  type OperationOptions,
} from './connection.js';
export { type DeviceCapabilities, type OpenDeviceOptions, openDevice, RdmaDevice, type Transport } from './device.js';
export {
  ConnectError,
  ConnectionClosedError,
  DeviceNotFoundError,
  QueueFullError,
  RdmaError,
  UnsupportedError,
  WcError,
} from './errors.js';
export { ConnectionRequest, Listener, type ListenOptions } from './listener.js';
export { type Access, type LocalSlice, MemoryRegion, RemoteBuffer, type RemoteBufferJSON, type RemoteBufferLike } from './memory.js';
