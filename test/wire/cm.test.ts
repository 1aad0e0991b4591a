/**
 * CM MAD codecs (IBTA Vol. 1 chapter 12): golden vectors assembled by hand from the field
 * tables, the naive reference decoder, fast-check round trips, the rdma_cm service ID and
 * cma_hdr, and decoder fuzzing (only MadWireError escapes).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import {
  CM_PRIVATE_DATA_SIZE,
  CmMsgResponse,
  type CmMessage,
  type CmPath,
  CmRejReason,
  CmTransport,
  cmaAddrFromIpv4,
  cmReqHasAltPath,
  decodeCmaHdr,
  decodeCmMad,
  emptyCmPath,
  encodeCmaHdr,
  encodeCmMad,
  gidFromIpv4,
  ipv4FromCmaAddr,
  ipv4FromGid,
  parseRdmaServiceId,
  RdmaPs,
  rdmaServiceId,
  SidrStatus,
  stringifyCmMad,
  stringifyGid,
} from '../../src/wire/ib/cm.js';
import { decodeMadHeader, isMadWireError, MAD_SIZE, MadDropReason, MadWireError } from '../../src/wire/ib/mad.js';
import { flatten, referenceFields } from './cm-reference.js';
import { hex, Prng, toHex } from './helpers.js';

const TID = 0x1122334455667788n;
const GA = gidFromIpv4('192.168.77.1');
const GB = gidFromIpv4('192.168.77.2');

/** A whole MAD from the header's AttributeID and the body's hex, zero-filled to 256 octets. */
function mad(attr: string, body: string): Uint8Array {
  const out = new Uint8Array(MAD_SIZE);
  out.set(hex(`01 07 02 03 0000 0000 1122334455667788 ${attr} 0000 00000000`), 0);
  out.set(hex(body), 24);
  return out;
}

const pad = (pd: number[], n: number) => {
  const a = new Uint8Array(n);
  a.set(pd);
  return a;
};

const CMA_PD = (() => {
  const pd = new Uint8Array(39);
  encodeCmaHdr(
    { cmaVersion: 0, ipVersion: 4, srcPort: 40000, srcAddr: cmaAddrFromIpv4('192.168.77.1'), dstAddr: cmaAddrFromIpv4('192.168.77.2') },
    pd,
  );
  pd.set([1, 2, 3], 36);
  return pd;
})();

const PRIMARY: CmPath = {
  localLid: 0xffff,
  remoteLid: 0xffff,
  localGid: GA,
  remoteGid: GB,
  flowLabel: 0x12345,
  packetRate: 0,
  trafficClass: 0,
  hopLimit: 64,
  sl: 0,
  subnetLocal: false,
  localAckTimeout: 19,
};

/** The REQ rping sends on RoCE (rocev2.md §3.2), field by field. */
const REQ: CmMessage = {
  kind: 'REQ',
  localCommId: 0xa1b2c3d4,
  vendorId: 0,
  serviceId: rdmaServiceId(RdmaPs.TCP, 7174),
  localCaGuid: 0x0002c90300aaaa01n,
  localQkey: 0,
  localQpn: 0x11,
  responderResources: 1,
  localEecn: 0,
  initiatorDepth: 1,
  remoteEecn: 0,
  remoteCmResponseTimeout: 20,
  transport: CmTransport.RC,
  e2eFlowControl: false,
  startingPsn: 0x123456,
  localCmResponseTimeout: 20,
  retryCount: 7,
  pkey: 0xffff,
  pathMtu: 3,
  rdcExists: false,
  rnrRetryCount: 7,
  maxCmRetries: 15,
  srq: false,
  extendedTransport: 0,
  primary: PRIMARY,
  alternate: emptyCmPath(),
  sapSupported: false,
  privateData: CMA_PD,
};
const REQ_BODY = `
  a1b2c3d4 00000000 0000000001061c06 0002c90300aaaa01 00000000
  00000000 00001101 00000001 000000a0 123456a7 ffff 37 f0
  ffff ffff 00000000000000000000ffffc0a84d01 00000000000000000000ffffc0a84d02
  12345000 00 40 00 98
  ${'00'.repeat(44)}
  00 40 9c40 000000000000000000000000c0a84d01 000000000000000000000000c0a84d02 010203`;

const GOLDEN: { name: string; msg: CmMessage; wire: Uint8Array }[] = [
  {
    name: 'REQ (rping on RoCE: PS_TCP port 7174, RC, PSN 0x123456, MTU 1024, ack timeout 19, cma_hdr)',
    msg: REQ,
    wire: mad('0010', REQ_BODY),
  },
  {
    name: 'MRA for a REQ, service timeout 24 (what rdma_cm sends before the consumer accepts)',
    msg: {
      kind: 'MRA',
      localCommId: 0x0badf00d,
      remoteCommId: 0xa1b2c3d4,
      msgMraed: CmMsgResponse.REQ,
      serviceTimeout: 24,
      privateData: new Uint8Array(222),
    },
    wire: mad('0011', '0badf00d a1b2c3d4 00 c0'),
  },
  {
    name: 'REJ 12 invalid GID for a REQ, ARI = a GID (comm ID 0 as Linux cm_issue_rej)',
    msg: {
      kind: 'REJ',
      localCommId: 0,
      remoteCommId: 0xa1b2c3d4,
      msgRejected: CmMsgResponse.REQ,
      reason: CmRejReason.INVALID_GID,
      ari: GB,
      privateData: new Uint8Array(148),
    },
    wire: mad('0012', `00000000 a1b2c3d4 00 20 000c 00000000000000000000ffffc0a84d02`),
  },
  {
    name: 'REJ 28 consumer defined, with private data',
    msg: {
      kind: 'REJ',
      localCommId: 0x0badf00d,
      remoteCommId: 0xa1b2c3d4,
      msgRejected: CmMsgResponse.REQ,
      reason: 28,
      ari: new Uint8Array(0),
      privateData: pad([0xde, 0xad], 148),
    },
    wire: mad('0012', `0badf00d a1b2c3d4 00 00 001c ${'00'.repeat(72)} dead`),
  },
  {
    name: 'REP: QPN 0x22, PSN 0x654321, RDMA 1/1, ACK delay 15, RNR retry 7',
    msg: {
      kind: 'REP',
      localCommId: 0x0badf00d,
      remoteCommId: 0xa1b2c3d4,
      localQkey: 0,
      localQpn: 0x22,
      localEecn: 0,
      startingPsn: 0x654321,
      responderResources: 1,
      initiatorDepth: 1,
      targetAckDelay: 15,
      failoverAccepted: 0,
      e2eFlowControl: false,
      rnrRetryCount: 7,
      srq: false,
      localCaGuid: 0x0002c90300bbbb02n,
      privateData: new Uint8Array(196),
    },
    wire: mad('0013', '0badf00d a1b2c3d4 00000000 00002200 00000000 65432100 01 01 78 e0 0002c90300bbbb02'),
  },
  {
    name: 'RTU',
    msg: { kind: 'RTU', localCommId: 0xa1b2c3d4, remoteCommId: 0x0badf00d, privateData: new Uint8Array(224) },
    wire: mad('0014', 'a1b2c3d4 0badf00d'),
  },
  {
    name: 'DREQ naming the peer QPN 0x22',
    msg: { kind: 'DREQ', localCommId: 0xa1b2c3d4, remoteCommId: 0x0badf00d, remoteQpn: 0x22, privateData: new Uint8Array(220) },
    wire: mad('0015', 'a1b2c3d4 0badf00d 00002200'),
  },
  {
    name: 'DREP',
    msg: { kind: 'DREP', localCommId: 0x0badf00d, remoteCommId: 0xa1b2c3d4, privateData: new Uint8Array(224) },
    wire: mad('0016', '0badf00d a1b2c3d4'),
  },
  {
    name: 'SIDR_REQ (udaddy: PS_UDP port 7174, cma_hdr)',
    msg: {
      kind: 'SIDR_REQ',
      requestId: 0x01020304,
      pkey: 0xffff,
      serviceId: rdmaServiceId(RdmaPs.UDP, 7174),
      privateData: pad([...CMA_PD], 216),
    },
    wire: mad('0017', `01020304 ffff 0000 0000000001111c06 ${toHex(CMA_PD)}`),
  },
  {
    name: 'SIDR_REP success: QPN 0x44, Q_Key 0x01234567 (RDMA_UDP_QKEY)',
    msg: {
      kind: 'SIDR_REP',
      requestId: 0x01020304,
      status: SidrStatus.SUCCESS,
      qpn: 0x44,
      serviceId: rdmaServiceId(RdmaPs.UDP, 7174),
      qkey: 0x01234567,
      info: new Uint8Array(0),
      privateData: new Uint8Array(136),
    },
    wire: mad('0018', '01020304 00 00 0000 00004400 0000000001111c06 01234567'),
  },
];

describe('CM MADs: golden vectors', () => {
  for (const g of GOLDEN) {
    it(g.name, () => {
      assert.equal(toHex(encodeCmMad(TID, g.msg)), toHex(g.wire));
      const d = decodeCmMad(g.wire);
      assert.equal(d.header.tid, TID);
      const want = { ...g.msg, privateData: pad([...g.msg.privateData], CM_PRIVATE_DATA_SIZE[g.msg.kind]) };
      assert.deepEqual(d.msg, want);
      assert.deepEqual(flatten(d.msg), referenceFields(g.msg.kind, g.wire.subarray(24)));
      assert.match(stringifyCmMad(d), new RegExp(`^CM tid=0x1122334455667788 ${g.msg.kind} `));
    });
  }

  it('the REQ stringifies with its addresses and service ID', () => {
    assert.equal(
      stringifyCmMad(decodeCmMad(GOLDEN[0]!.wire)),
      'CM tid=0x1122334455667788 REQ lcid=0xa1b2c3d4 sid=0x0000000001061c06 guid=0x0002c90300aaaa01 qpn=0x000011 psn=0x123456 RC rr=1 id=1 mtu=3 retry=7/7 tmo=20/20 maxcm=15 pkey=0xffff ::ffff:192.168.77.1→::ffff:192.168.77.2 hop=64 ack=19 pd=00409c40000000000000000000000000…(39)',
    );
    assert.equal(cmReqHasAltPath(REQ as never), false);
  });
});

describe('rdma_cm service IDs and cma_hdr (IBTA Annex A11)', () => {
  it('service ID = ps << 16 | port, rping on 7174 is 0x0000000001061c06', () => {
    assert.equal(rdmaServiceId(RdmaPs.TCP, 7174), 0x0000000001061c06n);
    assert.equal(rdmaServiceId(RdmaPs.UDP, 1), 0x0000000001110001n);
    assert.equal(rdmaServiceId(RdmaPs.IB, 0xffff), 0x00000000013fffffn);
    assert.deepEqual(parseRdmaServiceId(0x0000000001061c06n), { ps: 0x0106, port: 7174 });
    assert.equal(parseRdmaServiceId(0x0000000002061c06n), null);
    assert.equal(parseRdmaServiceId(0x1000000001061c06n), null);
    assert.throws(() => rdmaServiceId(RdmaPs.TCP, 65536), RangeError);
  });

  it('cma_hdr: version 0, IP version in the high nibble, source port, 16-octet addresses', () => {
    const h = decodeCmaHdr(CMA_PD);
    assert.deepEqual(
      { ...h, srcAddr: ipv4FromCmaAddr(h.srcAddr), dstAddr: ipv4FromCmaAddr(h.dstAddr) },
      {
        cmaVersion: 0,
        ipVersion: 4,
        srcPort: 40000,
        srcAddr: '192.168.77.1',
        dstAddr: '192.168.77.2',
      },
    );
    const bad = CMA_PD.slice();
    bad[0] = 1;
    assert.throws(
      () => decodeCmaHdr(bad),
      (e: unknown) => isMadWireError(e) && e.reason === MadDropReason.Field,
    );
    bad[0] = 0;
    bad[1] = 0x50;
    assert.throws(() => decodeCmaHdr(bad), MadWireError);
    assert.throws(() => decodeCmaHdr(CMA_PD.subarray(0, 35)), MadWireError);
  });

  it('IPv4-mapped GIDs', () => {
    assert.equal(toHex(gidFromIpv4('192.168.77.1')), '00000000000000000000ffffc0a84d01');
    assert.equal(ipv4FromGid(GA), '192.168.77.1');
    assert.equal(ipv4FromGid(hex('fe800000000000000000000000000001')), null);
    assert.equal(stringifyGid(GB), '::ffff:192.168.77.2');
    assert.equal(stringifyGid(hex('fe800000000000000000000000000001')), 'fe80:0:0:0:0:0:0:1');
    assert.throws(() => gidFromIpv4('1.2.3'), RangeError);
    assert.throws(() => gidFromIpv4('1.2.3.256'), RangeError);
  });
});

describe('CM MADs: validation', () => {
  const good = GOLDEN[0]!.wire;
  const withByte = (at: number, v: number) => {
    const b = good.slice();
    b[at] = v;
    return b;
  };
  const reason = (b: Uint8Array) => {
    try {
      decodeCmMad(b);
    } catch (e) {
      assert.ok(e instanceof MadWireError, String(e));
      return e.reason;
    }
    return 'ok';
  };
  it('drops MADs that are not exactly 256 octets, not BaseVersion 1, not class 0x07 v2, not Send, or of an unknown attribute', () => {
    assert.equal(reason(good.subarray(0, 255)), MadDropReason.Length);
    assert.equal(reason(new Uint8Array(257)), MadDropReason.Length);
    assert.equal(reason(withByte(0, 2)), MadDropReason.BaseVersion);
    assert.equal(reason(withByte(1, 0x03)), MadDropReason.Class);
    assert.equal(reason(withByte(2, 1)), MadDropReason.ClassVersion);
    assert.equal(reason(withByte(3, 0x81)), MadDropReason.Method);
    assert.equal(reason(withByte(17, 0x19)), MadDropReason.Attribute); // LAP: not on RoCE
    assert.equal(reason(withByte(17, 0x01)), MadDropReason.Attribute); // ClassPortInfo
  });
  it('drops reserved message codes and oversized ARI / Additional Information lengths', () => {
    const mra = GOLDEN[1]!.wire.slice();
    mra[24 + 8] = 0xc0;
    assert.equal(reason(mra), MadDropReason.Field);
    const rej = GOLDEN[2]!.wire.slice();
    rej[24 + 9] = 73 << 1;
    assert.equal(reason(rej), MadDropReason.Field);
    rej[24 + 9] = 72 << 1;
    assert.equal(reason(rej), 'ok');
    const sidr = GOLDEN[9]!.wire.slice();
    sidr[24 + 5] = 73;
    assert.equal(reason(sidr), MadDropReason.Field);
  });
  it('encoders refuse out-of-range fields and oversized private data with a RangeError', () => {
    assert.throws(() => encodeCmMad(TID, { ...REQ, localQpn: 1 << 24 } as CmMessage), RangeError);
    assert.throws(() => encodeCmMad(TID, { ...REQ, privateData: new Uint8Array(93) } as CmMessage), RangeError);
    assert.throws(() => encodeCmMad(-1n, REQ), RangeError);
    assert.throws(() => encodeCmMad(TID, { ...(GOLDEN[2]!.msg as object), ari: new Uint8Array(73) } as CmMessage), RangeError);
  });
});

// ---------------------------------------------------------------------------------------------
// Property tests.

const u = (bitsN: number) => fc.integer({ min: 0, max: 2 ** bitsN - 1 });
const u64 = fc.bigInt({ min: 0n, max: (1n << 64n) - 1n });
const bytes = (n: number) => fc.uint8Array({ minLength: n, maxLength: n });
const arbPath: fc.Arbitrary<CmPath> = fc.record(
  {
    localLid: u(16),
    remoteLid: u(16),
    localGid: bytes(16),
    remoteGid: bytes(16),
    flowLabel: u(20),
    packetRate: u(6),
    trafficClass: u(8),
    hopLimit: u(8),
    sl: u(4),
    subnetLocal: fc.boolean(),
    localAckTimeout: u(5),
  },
  { noNullPrototype: true },
);
const rec = <T>(r: { [K in keyof T]: fc.Arbitrary<T[K]> }) => fc.record(r, { noNullPrototype: true }) as fc.Arbitrary<T>;
const ids = { localCommId: u(32), remoteCommId: u(32) };
const arbMsg: fc.Arbitrary<CmMessage> = fc.oneof(
  rec<Extract<CmMessage, { kind: 'REQ' }>>({
    kind: fc.constant('REQ'),
    localCommId: u(32),
    vendorId: u(24),
    serviceId: u64,
    localCaGuid: u64,
    localQkey: u(32),
    localQpn: u(24),
    responderResources: u(8),
    localEecn: u(24),
    initiatorDepth: u(8),
    remoteEecn: u(24),
    remoteCmResponseTimeout: u(5),
    transport: u(2),
    e2eFlowControl: fc.boolean(),
    startingPsn: u(24),
    localCmResponseTimeout: u(5),
    retryCount: u(3),
    pkey: u(16),
    pathMtu: u(4),
    rdcExists: fc.boolean(),
    rnrRetryCount: u(3),
    maxCmRetries: u(4),
    srq: fc.boolean(),
    extendedTransport: u(3),
    primary: arbPath,
    alternate: arbPath,
    sapSupported: fc.boolean(),
    privateData: bytes(92),
  }),
  rec<Extract<CmMessage, { kind: 'MRA' }>>({
    kind: fc.constant('MRA'),
    ...ids,
    msgMraed: fc.constantFrom(0, 1, 2),
    serviceTimeout: u(5),
    privateData: bytes(222),
  }),
  rec<Extract<CmMessage, { kind: 'REJ' }>>({
    kind: fc.constant('REJ'),
    ...ids,
    msgRejected: fc.constantFrom(0, 1, 2),
    reason: u(16),
    ari: fc.uint8Array({ maxLength: 72 }),
    privateData: bytes(148),
  }),
  rec<Extract<CmMessage, { kind: 'REP' }>>({
    kind: fc.constant('REP'),
    ...ids,
    localQkey: u(32),
    localQpn: u(24),
    localEecn: u(24),
    startingPsn: u(24),
    responderResources: u(8),
    initiatorDepth: u(8),
    targetAckDelay: u(5),
    failoverAccepted: u(2),
    e2eFlowControl: fc.boolean(),
    rnrRetryCount: u(3),
    srq: fc.boolean(),
    localCaGuid: u64,
    privateData: bytes(196),
  }),
  rec<Extract<CmMessage, { kind: 'RTU' }>>({ kind: fc.constant('RTU'), ...ids, privateData: bytes(224) }),
  rec<Extract<CmMessage, { kind: 'DREQ' }>>({ kind: fc.constant('DREQ'), ...ids, remoteQpn: u(24), privateData: bytes(220) }),
  rec<Extract<CmMessage, { kind: 'DREP' }>>({ kind: fc.constant('DREP'), ...ids, privateData: bytes(224) }),
  rec<Extract<CmMessage, { kind: 'SIDR_REQ' }>>({
    kind: fc.constant('SIDR_REQ'),
    requestId: u(32),
    pkey: u(16),
    serviceId: u64,
    privateData: bytes(216),
  }),
  rec<Extract<CmMessage, { kind: 'SIDR_REP' }>>({
    kind: fc.constant('SIDR_REP'),
    requestId: u(32),
    status: u(8),
    qpn: u(24),
    serviceId: u64,
    qkey: u(32),
    info: fc.uint8Array({ maxLength: 72 }),
    privateData: bytes(136),
  }),
);

describe('CM MADs: properties', () => {
  it('encode → decode is the identity for every message kind (fast-check)', () => {
    fc.assert(
      fc.property(u64, arbMsg, (tid, msg) => {
        const w = encodeCmMad(tid, msg);
        assert.equal(w.length, 256);
        const d = decodeCmMad(w);
        assert.equal(d.header.tid, tid);
        assert.deepEqual(d.msg, msg);
      }),
      { numRuns: 2000 },
    );
  });

  it('the codec agrees with the naive reference decoder on every field', () => {
    fc.assert(
      fc.property(arbMsg, (msg) => {
        const w = encodeCmMad(TID, msg);
        assert.deepEqual(flatten(decodeCmMad(w).msg), referenceFields(msg.kind, w.subarray(24)));
      }),
      { numRuns: 1000 },
    );
  });

  it('decode → encode → decode is stable for random bodies (reserved bits are dropped, nothing else changes)', () => {
    fc.assert(
      fc.property(fc.constantFrom(0x10, 0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17, 0x18), bytes(232), (attr, body) => {
        const w = mad(attr.toString(16).padStart(4, '0'), toHex(body));
        let d: ReturnType<typeof decodeCmMad>;
        try {
          d = decodeCmMad(w);
        } catch (e) {
          assert.ok(e instanceof MadWireError);
          return;
        }
        const again = decodeCmMad(encodeCmMad(d.header.tid, d.msg));
        assert.deepEqual(again.msg, d.msg);
        assert.deepEqual(flatten(d.msg), referenceFields(d.msg.kind, w.subarray(24)));
      }),
      { numRuns: 2000 },
    );
  });
});

describe('CM MADs: fuzz', { timeout: 60_000 }, () => {
  it('100,000 random and mutated inputs: decodeCmMad and decodeCmaHdr throw nothing but MadWireError', () => {
    const rng = new Prng(0x15cb);
    const seeds = GOLDEN.map((g) => g.wire);
    let ok = 0;
    let dropped = 0;
    for (let i = 0; i < 100_000; i++) {
      let b: Uint8Array;
      const r = rng.int(4);
      if (r === 0) b = rng.bytes(rng.int(300));
      else {
        b = seeds[rng.int(seeds.length)]!.slice();
        const n = 1 + rng.int(4);
        for (let k = 0; k < n; k++) b[r === 1 ? rng.int(24) : rng.int(b.length)] = rng.u32() & 0xff;
        if (r === 3 && rng.int(4) === 0) b = b.subarray(0, rng.int(b.length + 1));
      }
      try {
        const d = decodeCmMad(b);
        stringifyCmMad(d);
        if (d.msg.kind === 'REQ' || d.msg.kind === 'SIDR_REQ') {
          try {
            decodeCmaHdr(d.msg.privateData);
          } catch (e) {
            if (!(e instanceof MadWireError)) throw e;
          }
        }
        ok++;
      } catch (e) {
        if (!(e instanceof MadWireError)) assert.fail(`input #${i} ${toHex(b)} threw ${String(e)}`);
        dropped++;
      }
    }
    assert.ok(ok > 1000 && dropped > 1000, `ok=${ok} dropped=${dropped}`);
  });

  it('decodeMadHeader reads any 24 octets', () => {
    const h = decodeMadHeader(GOLDEN[0]!.wire);
    assert.deepEqual(h, {
      baseVersion: 1,
      mgmtClass: 7,
      classVersion: 2,
      method: 3,
      status: 0,
      classSpecific: 0,
      tid: TID,
      attrId: 0x10,
      resv: 0,
      attrMod: 0,
    });
    assert.throws(() => decodeMadHeader(new Uint8Array(23)), MadWireError);
  });
});
