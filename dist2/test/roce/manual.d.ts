import { RoceNet } from '../../src/roce/net.js';
/** Runs `fn` with softroce0's QPs on the RoCEv2 transport, on an ephemeral UDP port. */
export declare function onRoceWire<T>(fn: (net: RoceNet) => Promise<T>): Promise<T>;
/** E19: rnr_retry 0 → IBV_WC_RNR_RETRY_EXC_ERR; rnr_retry 7 waits and succeeds once a receive is posted. */
export declare function e19(): Promise<void>;
/** E20: a Send to a peer that vanished → IBV_WC_RETRY_EXC_ERR after (retry_cnt + 1) Local ACK Timeouts. */
export declare function e20(): Promise<void>;
/** E21: UC — a message that lost a packet is dropped silently (sender: success; receiver: no CQE); the next arrives. */
export declare function e21(): Promise<void>;
