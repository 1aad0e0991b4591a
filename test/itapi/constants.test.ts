/**
 * Pins the IT-API 2.1 constants of `src/itapi/` against `it_api.h` (IT-API 2.1 App. G.1). Line
 * numbers are the spec's printed line numbers of the header listing (IT-API 2.1, The Open
 * Group C055); the tables below were transcribed from it, not
 * from the TypeScript.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { IT_API_FUNCTION_NAMES, IT_API_FUNCTIONS, IT_NORMAL_OUTCOMES } from '../../src/itapi/api.js';
import * as status from '../../src/itapi/status.js';
import {
  IT_ERR_EP_TIMEOUT,
  IT_ERR_EP_TIMEWAIT,
  IT_ERR_INVALID_ATIMEOUT,
  IT_ERR_INVALID_ETIMEOUT,
  IT_ERR_QUEUE_EMPTY,
  IT_STATUS_HEADER_COUNT,
  IT_STATUS_HEADER_MAX,
  IT_STATUS_MAX,
  ItError,
  isItError,
  isItHeaderStatus,
  isItStatus,
  it_status_t,
  itStatusFromName,
  itStatusName,
} from '../../src/itapi/status.js';
import * as types from '../../src/itapi/types.js';
import {
  IT_EVENT_STREAM_MASK,
  IT_EVENT_STREAMS,
  IT_HARD_HI_WATERMARK_DISABLE,
  IT_MAX_PRIV_DATA,
  IT_TIMEOUT_INFINITE,
  isItEventStream,
  it_dto_status_t,
  it_ep_state_rc_t,
  it_ep_state_ud_t,
  it_event_type_t,
  it_handle_type_enum_t,
  it_transport_type_t,
  itEventStream,
} from '../../src/itapi/types.js';

/** `typedef enum { ... } it_status_t;` — it_api.h L13172–L13281, one member per line, header spelling. */
const HEADER_STATUS: readonly [string, number][] = [
  ['IT_SUCCESS', 13174],
  ['IT_ERR_ABORT', 13175],
  ['IT_ERR_ACCESS', 13176],
  ['IT_ERR_ADDRESS', 13177],
  ['IT_ERR_AEVD_NOT_ALLOWED', 13178],
  ['IT_ERR_ASYNC_AFF_EVD_EXISTS', 13179],
  ['IT_ERR_ASYNC_UNAFF_EVD_EXISTS', 13180],
  ['IT_ERR_CALLBACK_EXISTS', 13181],
  ['IT_ERR_CANNOT_RESET', 13182],
  ['IT_ERR_CONN_QUAL_BUSY', 13183],
  ['IT_ERR_EP_BUSY', 13184],
  ['IT_ERR_EP_TIMEOUT', 13185],
  ['IT_ERR_EVD_BUSY', 13186],
  ['IT_ERR_EVD_WAIT', 13187],
  ['IT_ERR_EVD_QUEUE_FULL', 13188],
  ['IT_ERR_FAULT', 13189],
  ['IT_ERR_HARD_HI_WATERMARK', 13190],
  ['IT_ERR_IA_CATASTROPHE', 13191],
  ['IT_ERR_INTERRUPT', 13192],
  ['IT_ERR_INVALID_ADDR_MODE', 13193],
  ['IT_ERR_INVALID_ADDRESS', 13194],
  ['IT_ERR_INVALID_AEVD', 13195],
  ['IT_ERR_INVALID_AH', 13196],
  ['IT_ERR_INVALID_ETIMEOUT', 13197],
  ['IT_ERR_INVALID_ATOMIC_OP', 13198],
  ['IT_ERR_INVALID_CM_RETRY', 13199],
  ['IT_ERR_INVALID_CN_EST_FLAGS', 13200],
  ['IT_ERR_INVALID_CN_EST_ID', 13201],
  ['IT_ERR_INVALID_CONN_EVD', 13202],
  ['IT_ERR_INVALID_CONN_QUAL', 13203],
  ['IT_ERR_INVALID_CONVERSION', 13204],
  ['IT_ERR_INVALID_DTO_FLAGS', 13205],
  ['IT_ERR_INVALID_EP', 13206],
  ['IT_ERR_INVALID_EP_ATTR', 13207],
  ['IT_ERR_INVALID_EP_KEY', 13208],
  ['IT_ERR_INVALID_EP_STATE', 13209],
  ['IT_ERR_INVALID_EP_TYPE', 13210],
  ['IT_ERR_INVALID_EVD', 13211],
  ['IT_ERR_INVALID_EVD_STATE', 13212],
  ['IT_ERR_INVALID_EVD_TYPE', 13213],
  ['IT_ERR_INVALID_FLAGS', 13214],
  ['IT_ERR_INVALID_HANDLE', 13215],
  ['IT_ERR_INVALID_IA', 13216],
  ['IT_ERR_INVALID_IOBL', 13217],
  ['IT_ERR_INVALID_LENGTH', 13218],
  ['IT_ERR_INVALID_LISTEN', 13219],
  ['IT_ERR_INVALID_LMR', 13220],
  ['IT_ERR_INVALID_LTIMEOUT', 13221],
  ['IT_ERR_INVALID_MAJOR_VERSION', 13222],
  ['IT_ERR_INVALID_MASK', 13223],
  ['IT_ERR_INVALID_MINOR_VERSION', 13224],
  ['IT_ERR_INVALID_NAME', 13225],
  ['IT_ERR_INVALID_NETADDR', 13226],
  ['IT_ERR_INVALID_NUM_SEGMENTS', 13227],
  ['IT_ERR_INVALID_PDATA_LENGTH', 13228],
  ['IT_ERR_INVALID_PRIVS', 13229],
  ['IT_ERR_INVALID_PZ', 13230],
  ['IT_ERR_INVALID_QUEUE_SIZE', 13231],
  ['IT_ERR_INVALID_RECV_DTO', 13232],
  ['IT_ERR_INVALID_RECV_EVD', 13233],
  ['IT_ERR_INVALID_RECV_EVD_STATE', 13234],
  ['IT_ERR_INVALID_REQ_EVD', 13235],
  ['IT_ERR_INVALID_REQ_EVD_STATE', 13236],
  ['IT_ERR_INVALID_RETRY', 13237],
  ['IT_ERR_INVALID_RMR', 13238],
  ['IT_ERR_INVALID_RNR_RETRY', 13239],
  ['IT_ERR_INVALID_RMR_TYPE', 13240],
  ['IT_ERR_INVALID_RTIMEOUT', 13241],
  ['IT_ERR_INVALID_SOFT_EVD', 13242],
  ['IT_ERR_INVALID_SOURCE_PATH', 13243],
  ['IT_ERR_INVALID_SPIGOT', 13244],
  ['IT_ERR_INVALID_SRQ', 13245],
  ['IT_ERR_INVALID_SRQ_SIZE', 13246],
  ['IT_ERR_INVALID_THRESHOLD', 13247],
  ['IT_ERR_INVALID_UD_STATUS', 13248],
  ['IT_ERR_INVALID_UD_SVC', 13249],
  ['IT_ERR_INVALID_UD_SVC_REQ_ID', 13250],
  ['IT_ERR_INVALID_WATERMARK', 13251],
  ['IT_ERR_LMR_BUSY', 13252],
  ['IT_ERR_MISMATCH_FD', 13253],
  ['IT_ERR_NO_CONTEXT', 13254],
  ['IT_ERR_NO_PERMISSION', 13255],
  ['IT_ERR_OP_NOT_SUPPORTED', 13256],
  ['IT_ERR_PAYLOAD_SIZE', 13257],
  ['IT_ERR_PDATA_NOT_SUPPORTED', 13258],
  ['IT_ERR_PRIV_OPS_UNAVAILABLE', 13259],
  ['IT_ERR_PZ_BUSY', 13260],
  ['IT_ERR_QUEUE_EMPTY', 13261],
  ['IT_ERR_RANGE', 13262],
  ['IT_ERR_RESOURCES', 13263],
  ['IT_ERR_RESOURCE_IRD', 13264],
  ['IT_ERR_RESOURCE_LMR_LENGTH', 13265],
  ['IT_ERR_RESOURCE_ORD', 13266],
  ['IT_ERR_RESOURCE_QUEUE_SIZE', 13267],
  ['IT_ERR_RESOURCE_RECV_DTO', 13268], // header: "IT_ERR_RESOURCE_RECV DTO" (typesetting)
  ['IT_ERR_RESOURCE_REQ_DTO', 13269], // header: "IT_ERR_RESOURCE_REQ DTO" (typesetting)
  ['IT_ERR_RESOURCE_RRSEG', 13270],
  ['IT_ERR_RESOURCE_RSEG', 13271],
  ['IT_ERR_RESOURCE_RWSEG', 13272],
  ['IT_ERR_RESOURCE_SSEG', 13273],
  ['IT_ERR_SOFT_HI_WATERMARK', 13274],
  ['IT_ERR_SRQ_BUSY', 13275],
  ['IT_ERR_SRQ_LOW_WATERMARK', 13276],
  ['IT_ERR_SRQ_NOT_SUPPORTED', 13277],
  ['IT_ERR_TIMEOUT_EXPIRED', 13278],
  ['IT_ERR_TOO_MANY_POSTS', 13279],
  ['IT_ERR_WAITER_LIMIT', 13280],
];

/** `typedef enum { ... } it_event_type_t;` — it_api.h L14205–L14277: [name, value, header line]. */
const HEADER_EVENTS: readonly [string, number, number][] = [
  ['IT_DTO_EVENT_STREAM', 0x00000, 14210],
  ['IT_DTO_SEND_CMPL_EVENT', 0x00001, 14211],
  ['IT_DTO_RC_RECV_CMPL_EVENT', 0x00002, 14212],
  ['IT_DTO_UD_RECV_CMPL_EVENT', 0x00003, 14213],
  ['IT_DTO_RDMA_WRITE_CMPL_EVENT', 0x00004, 14214],
  ['IT_DTO_RDMA_READ_CMPL_EVENT', 0x00005, 14215],
  ['IT_RMR_BIND_CMPL_EVENT', 0x00006, 14216],
  ['IT_RMR_LINK_CMPL_EVENT', 0x00006, 14217],
  ['IT_DTO_FETCH_ADD_CMPL_EVENT', 0x00007, 14218],
  ['IT_DTO_CMP_SWAP_CMPL_EVENT', 0x00008, 14219],
  ['IT_LMR_LINK_CMPL_EVENT', 0x00009, 14220],
  ['IT_CM_REQ_EVENT_STREAM', 0x01000, 14225],
  ['IT_CM_REQ_CONN_REQUEST_EVENT', 0x01001, 14226],
  ['IT_CM_REQ_UD_SERVICE_REQUEST_EVENT', 0x01002, 14227],
  ['IT_CM_MSG_EVENT_STREAM', 0x02000, 14232],
  ['IT_CM_MSG_CONN_ACCEPT_ARRIVAL_EVENT', 0x02001, 14233],
  ['IT_CM_MSG_CONN_ESTABLISHED_EVENT', 0x02002, 14234],
  ['IT_CM_MSG_CONN_DISCONNECT_EVENT', 0x02003, 14235],
  ['IT_CM_MSG_CONN_PEER_REJECT_EVENT', 0x02004, 14236],
  ['IT_CM_MSG_CONN_NONPEER_REJECT_EVENT', 0x02005, 14237],
  ['IT_CM_MSG_CONN_BROKEN_EVENT', 0x02006, 14238],
  ['IT_CM_MSG_UD_SERVICE_REPLY_EVENT', 0x02007, 14239],
  ['IT_ASYNC_AFF_EVENT_STREAM', 0x04000, 14242],
  ['IT_ASYNC_AFF_SEVD_ENQUEUE_FAILURE', 0x04001, 14243],
  ['IT_ASYNC_AFF_EP_FAILURE', 0x04002, 14244],
  ['IT_ASYNC_AFF_EP_BAD_TRANSPORT_OPCODE', 0x04003, 14245],
  ['IT_ASYNC_AFF_EP_REQ_DROPPED', 0x04005, 14246],
  ['IT_ASYNC_AFF_EP_RDMAW_ACCESS_VIOLATION', 0x04006, 14247],
  ['IT_ASYNC_AFF_EP_RDMAW_CORRUPT_DATA', 0x04007, 14248],
  ['IT_ASYNC_AFF_EP_RDMAR_ACCESS_VIOLATION', 0x04008, 14249],
  ['IT_ASYNC_AFF_EP_LOCAL_ACCESS_VIOLATION', 0x04020, 14250],
  ['IT_ASYNC_AFF_EP_L_ACCESS_VIOLATION', 0x04020, 14251],
  ['IT_ASYNC_AFF_EP_L_RECV_ACCESS_VIOLATION', 0x04021, 14252],
  ['IT_ASYNC_AFF_EP_L_IRRQ_ACCESS_VIOLATION', 0x04022, 14253],
  ['IT_ASYNC_AFF_EP_L_TRANSPORT_ERROR', 0x04023, 14254],
  ['IT_ASYNC_AFF_EP_L_LLP_ERROR', 0x04024, 14255],
  ['IT_ASYNC_AFF_EP_R_ERROR', 0x04040, 14256],
  ['IT_ASYNC_AFF_EP_R_ACCESS_VIOLATION', 0x04041, 14257],
  ['IT_ASYNC_AFF_EP_R_RECV_ACCESS_VIOLATION', 0x04042, 14258],
  ['IT_ASYNC_AFF_EP_R_RECV_LENGTH_ERROR', 0x04043, 14259],
  ['IT_ASYNC_AFF_EP_SOFT_HI_WATERMARK', 0x04060, 14260],
  ['IT_ASYNC_AFF_SRQ_LOW_WATERMARK', 0x04100, 14261],
  ['IT_ASYNC_UNAFF_EVENT_STREAM', 0x08000, 14264],
  ['IT_ASYNC_UNAFF_SPIGOT_ONLINE', 0x08002, 14266],
  ['IT_ASYNC_UNAFF_SPIGOT_OFFLINE', 0x08003, 14267],
  ['IT_ASYNC_UNAFF_SEVD_ENQUEUE_FAILURE', 0x08004, 14268],
  ['IT_SOFTWARE_EVENT_STREAM', 0x10000, 14271],
  ['IT_SOFTWARE_EVENT', 0x10001, 14272],
  ['IT_AEVD_NOTIFICATION_EVENT_STREAM', 0x20000, 14275],
  ['IT_AEVD_NOTIFICATION_EVENT', 0x20001, 14276],
];

/** The stream each event belongs to, from the header's grouping comments (L14207–L14274). */
const STREAM_OF_HEADER_LINE = (line: number): number => {
  if (line <= 14220) return 0x00000; // "Event Stream for WR/DTO completions"
  if (line <= 14227) return 0x01000; // "... Communication Management Request Events"
  if (line <= 14239) return 0x02000; // "... Communication Management Message Events"
  if (line <= 14261) return 0x04000; // "Event Stream for Affiliated Asynchronous Events"
  if (line <= 14268) return 0x08000; // "Event Stream for Unaffiliated Asynchronous Events"
  if (line <= 14272) return 0x10000; // "Event Stream for Software Events"
  return 0x20000; // "Event Stream for AEVD Notifications"
};

const enumValue = (e: object, name: string): unknown => (e as Record<string, unknown>)[name];

describe('it_status_t numbering (it_api.h L13172–L13281: IT_SUCCESS = 0, then implicit)', () => {
  it('has 107 header members, 0 … 106', () => {
    assert.equal(HEADER_STATUS.length, 107);
    assert.equal(IT_STATUS_HEADER_COUNT, 107);
    assert.equal(IT_STATUS_HEADER_MAX, 106);
    // Implicit C numbering: a member's value is its line offset from IT_SUCCESS (one per line).
    for (const [i, [, line]] of HEADER_STATUS.entries()) assert.equal(line - 13174, i);
  });

  for (const [name, line] of HEADER_STATUS) {
    const position = line - 13174;
    it(`${name} = ${position} (it_api.h L${line})`, () => {
      assert.equal(itStatusFromName(name), position);
      assert.equal(isItHeaderStatus(position), true);
      // every position has exactly one canonical name, exported as a top-level constant too
      const canonical = itStatusName(position);
      assert.equal(enumValue(it_status_t, canonical), position);
      assert.equal(enumValue(status, canonical), position);
    });
  }

  it('header spellings that differ from the pages are aliases, canonical = page spelling', () => {
    // L13185 header IT_ERR_EP_TIMEOUT vs it_ep_accept L1889 / it_status_t page L11362 IT_ERR_EP_TIMEWAIT
    assert.equal(IT_ERR_EP_TIMEWAIT, 11);
    assert.equal(IT_ERR_EP_TIMEOUT, 11);
    assert.equal(itStatusName(11), 'IT_ERR_EP_TIMEWAIT');
    // L13197 header + it_ep_connect L2112 IT_ERR_INVALID_ETIMEOUT vs it_status_t page L11374 IT_ERR_INVALID_ATIMEOUT
    assert.equal(IT_ERR_INVALID_ETIMEOUT, 23);
    assert.equal(IT_ERR_INVALID_ATIMEOUT, 23);
    assert.equal(itStatusName(23), 'IT_ERR_INVALID_ETIMEOUT');
    assert.equal(itStatusFromName('IT_ERR_INVALID_ATIMEOUT'), 23);
  });

  it('softrdma extensions follow the header (107 …) and are page-named codes', () => {
    assert.equal(it_status_t.IT_ERR_INVALID_IANA_LR_PORT, 107); // it_ep_connect L2115
    assert.equal(it_status_t.IT_ERR_RESOURCE_IOBL_LENGTH, 108); // it_lmr_create_unlinked L4711
    assert.equal(it_status_t.IT_ERR_INVALID_SD, 109); // it_socket_convert L8156
    assert.equal(it_status_t.IT_ERR_INVALID_SD_STATE, 110); // it_socket_convert L8157
    assert.equal(IT_STATUS_MAX, 110);
    assert.equal(isItHeaderStatus(107), false);
    assert.equal(isItStatus(110), true);
    assert.equal(isItStatus(111), false);
  });

  it('names: round trip, unknowns, ItError', () => {
    for (let s = 0; s <= IT_STATUS_MAX; s++) assert.equal(itStatusFromName(itStatusName(s)), s);
    assert.equal(itStatusName(999), 'IT_STATUS_999?');
    assert.equal(itStatusFromName('IT_ERR_NOT_SUPPORTED'), undefined); // no such code in IT-API 2.1
    const e = new ItError(IT_ERR_QUEUE_EMPTY, 'nothing', 'it_evd_dequeue');
    assert.ok(e instanceof Error);
    assert.equal(e.name, 'ItError');
    assert.equal(e.status, 87);
    assert.equal(e.fn, 'it_evd_dequeue');
    assert.match(e.message, /^it_evd_dequeue: IT_ERR_QUEUE_EMPTY/);
    assert.ok(isItError(e, IT_ERR_QUEUE_EMPTY));
    assert.ok(!isItError(e, IT_ERR_EP_TIMEWAIT));
  });
});

describe('it_event_type_t values (it_api.h L14205–L14277)', () => {
  it('has every header member', () => {
    assert.equal(HEADER_EVENTS.length, 50);
  });

  for (const [name, value, line] of HEADER_EVENTS) {
    it(`${name} = 0x${value.toString(16).padStart(5, '0')} (it_api.h L${line})`, () => {
      assert.equal(enumValue(it_event_type_t, name), value);
      assert.equal(enumValue(types, name), value); // top-level constant
    });
  }

  it('enum has no member the header lacks', () => {
    const names = Object.keys(it_event_type_t).filter((k) => Number.isNaN(Number(k)));
    assert.deepEqual(names.sort(), HEADER_EVENTS.map(([n]) => n).sort());
  });

  it('reverse lookup gives the current names of the header aliases', () => {
    assert.equal(it_event_type_t[0x6], 'IT_RMR_LINK_CMPL_EVENT'); // = IT_RMR_BIND_CMPL_EVENT (L14216–L14217)
    assert.equal(it_event_type_t[0x4020], 'IT_ASYNC_AFF_EP_L_ACCESS_VIOLATION'); // L14250–L14251
  });
});

describe('event stream rule: stream = event_number & IT_EVENT_STREAM_MASK (it_api.h L14201)', () => {
  it('IT_EVENT_STREAM_MASK is 0xff000', () => {
    assert.equal(IT_EVENT_STREAM_MASK, 0xff000);
  });

  it('the seven streams are the brief/header values', () => {
    assert.deepEqual([...IT_EVENT_STREAMS], [0x00000, 0x01000, 0x02000, 0x04000, 0x08000, 0x10000, 0x20000]);
    for (const s of IT_EVENT_STREAMS) {
      assert.equal(itEventStream(s), s, 'a stream value is its own stream');
      assert.ok(isItEventStream(s));
    }
  });

  for (const [name, value, line] of HEADER_EVENTS) {
    it(`${name} belongs to stream 0x${STREAM_OF_HEADER_LINE(line).toString(16).padStart(5, '0')}`, () => {
      assert.equal(value & 0xff000, STREAM_OF_HEADER_LINE(line));
      assert.equal(itEventStream(value), STREAM_OF_HEADER_LINE(line));
      const isStreamValue = name.endsWith('_STREAM');
      assert.equal(isItEventStream(value), isStreamValue);
      assert.equal((value & ~IT_EVENT_STREAM_MASK) === 0, isStreamValue, 'only streams have a zero in-stream index');
    });
  }
});

describe('other header constants', () => {
  it('IT_TIMEOUT_INFINITE is (uint64_t)(-1) (L14203); IT_MAX_PRIV_DATA 256 (L14299)', () => {
    assert.equal(IT_TIMEOUT_INFINITE, 2n ** 64n - 1n);
    assert.equal(IT_MAX_PRIV_DATA, 256);
    assert.equal(IT_HARD_HI_WATERMARK_DISABLE, Number.POSITIVE_INFINITY); // (size_t)-1, L14169
  });

  it('it_dto_status_t 0 … 12 (L13438–L13450)', () => {
    const names = [
      'IT_DTO_SUCCESS',
      'IT_DTO_ERR_LOCAL_LENGTH',
      'IT_DTO_ERR_LOCAL_EP',
      'IT_DTO_ERR_LOCAL_PROTECTION',
      'IT_DTO_ERR_FLUSHED',
      'IT_RMR_OPERATION_FAILED',
      'IT_DTO_ERR_BAD_RESPONSE',
      'IT_DTO_ERR_REMOTE_ACCESS',
      'IT_DTO_ERR_REMOTE_RESPONDER',
      'IT_DTO_ERR_TRANSPORT',
      'IT_DTO_ERR_RECEIVER_NOT_READY',
      'IT_DTO_ERR_PARTIAL_PACKET',
      'IT_DTO_ERR_LOCAL_MM_OPERATION',
    ];
    for (const [i, n] of names.entries()) assert.equal(enumValue(it_dto_status_t, n), i, n);
  });

  it('it_ep_state_rc_t 0 … 6 (L14538–L14544) and it_ep_state_ud_t (L14549–L14550)', () => {
    const rc = [
      'IT_EP_STATE_UNCONNECTED',
      'IT_EP_STATE_ACTIVE1_CONNECTION_PENDING',
      'IT_EP_STATE_ACTIVE2_CONNECTION_PENDING',
      'IT_EP_STATE_PASSIVE_CONNECTION_PENDING',
      'IT_EP_STATE_CONNECTED',
      'IT_EP_STATE_NONOPERATIONAL',
      'IT_EP_STATE_PASSIVE_WAIT_RDMA_TRANS_REQ',
    ];
    for (const [i, n] of rc.entries()) assert.equal(enumValue(it_ep_state_rc_t, n), i, n);
    assert.equal(it_ep_state_ud_t.IT_EP_STATE_UD_NONOPERATIONAL, 0);
    assert.equal(it_ep_state_ud_t.IT_EP_STATE_UD_OPERATIONAL, 1);
  });

  it('it_handle_type_enum_t 0 … 9 (L13338–L13347) and transports (L13544–L13558)', () => {
    const h = ['ADDR', 'EP', 'EVD', 'IA', 'LISTEN', 'LMR', 'PZ', 'RMR', 'UD_SVC_REQ', 'SRQ'];
    for (const [i, n] of h.entries()) assert.equal(enumValue(it_handle_type_enum_t, `IT_HANDLE_TYPE_${n}`), i, n);
    assert.equal(it_transport_type_t.IT_IB_TRANSPORT, 1);
    assert.equal(it_transport_type_t.IT_VIA_IP_TRANSPORT, 2);
    assert.equal(it_transport_type_t.IT_VIA_FC_TRANSPORT, 3);
    assert.equal(it_transport_type_t.IT_IWARP_TCP_TRANSPORT, 4);
    assert.equal(it_transport_type_t.IT_VENDOR_TRANSPORT, 1000);
  });
});

describe('function table (78 reference pages, 79 functions)', () => {
  it('lists 79 functions; it_ntoh64 shares the it_hton64 page', () => {
    assert.equal(IT_API_FUNCTION_NAMES.length, 79);
    assert.equal(new Set(IT_API_FUNCTION_NAMES.map((n) => IT_API_FUNCTIONS[n].page)).size, 78);
    assert.equal(IT_API_FUNCTIONS.it_ntoh64.page, IT_API_FUNCTIONS.it_hton64.page);
  });

  it('pages ascend in reference-page order; missing pages have no line', () => {
    const pages = IT_API_FUNCTION_NAMES.map((n) => IT_API_FUNCTIONS[n].page);
    assert.deepEqual(
      pages,
      [...pages].sort((a, b) => a - b),
    );
    const missing = IT_API_FUNCTION_NAMES.filter((n) => IT_API_FUNCTIONS[n].line === null);
    assert.deepEqual(missing, ['it_get_handle_type', 'it_make_rdma_addr_relative']);
  });

  it('statuses are defined codes; normal outcomes are listed statuses', () => {
    for (const name of IT_API_FUNCTION_NAMES) {
      const f = IT_API_FUNCTIONS[name];
      for (const s of [...f.returns, ...f.added]) assert.ok(isItStatus(s) && s !== 0, `${name}: ${s}`);
      for (const s of f.normal) assert.ok(f.returns.includes(s), `${name}: normal ${itStatusName(s)}`);
      if (f.iwarp === 'not-applicable') assert.ok(f.iwarpStatus !== undefined, name);
      if (f.iwarpStatus !== undefined) {
        assert.ok([...f.returns, ...f.added].includes(f.iwarpStatus), `${name}: iwarpStatus listed`);
      }
    }
  });

  it('normal outcomes are exactly the documented set', () => {
    const got = Object.fromEntries([...IT_NORMAL_OUTCOMES].map(([s, fns]) => [itStatusName(s), [...fns].sort()]));
    assert.deepEqual(got, {
      IT_ERR_INTERRUPT: ['it_convert_net_addr', 'it_evd_wait', 'it_get_pathinfo'],
      IT_ERR_EP_TIMEWAIT: ['it_ep_accept'],
      IT_ERR_QUEUE_EMPTY: ['it_evd_dequeue'],
      IT_ERR_EVD_QUEUE_FULL: ['it_evd_post_se'],
      IT_ERR_TIMEOUT_EXPIRED: ['it_evd_wait'],
      IT_ERR_ABORT: ['it_evd_wait'],
      IT_ERR_NO_CONTEXT: ['it_get_consumer_context'],
    });
  });
});
