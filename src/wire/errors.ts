/**
 * Terminate error codes of the iWARP stack and the typed error every wire decoder throws.
 *
 * A Terminate message (RFC 5040 §4.8) names an error by three numbers: the Layer that detected
 * it, an Error Type within that layer and an Error Code within that type. The tables below are
 * the complete lists of RFC 5040 (RDMAP), RFC 5041 (DDP), RFC 5044 (MPA) and the LLP codes that
 * RFC 6581 added, with the numbers the IANA "RDDP" registry (RFC 6580) records for them.
 *
 * Every decoder in `src/wire` reports malformed input by throwing a {@link TerminateError}
 * carrying the triple the RFCs prescribe, so the engine can copy it straight into the
 * Terminate message it sends before closing the stream.
 *
 * @packageDocumentation
 */

/**
 * Terminate Control "Layer" field (4 bits). RFC 5040 §4.8: the layer that detected the error.
 */
export enum TermLayer {
  /** RDMAP (RFC 5040). */
  RDMAP = 0x0,
  /** DDP (RFC 5041). */
  DDP = 0x1,
  /** The lower layer protocol: MPA over TCP (RFC 5044) for iWARP. */
  LLP = 0x2,
}

/** RDMAP error types (Layer 0x0). RFC 5040 §4.8, IANA "RDMAP Errors". */
export enum RdmapEtype {
  /** Local catastrophic error; the Error Code is not interpreted (IANA 0x0/0x0/ALL). */
  LocalCatastrophic = 0x0,
  /** Remote Protection Error: an STag/TO/access check failed. */
  RemoteProtection = 0x1,
  /** Remote Operation Error: the message itself is not acceptable. */
  RemoteOperation = 0x2,
}

/**
 * RDMAP error codes. RFC 5040 §4.8. The numbers are unique across the two error types;
 * 0x00–0x04 belong to Remote Protection Error, 0x05–0x08 to Remote Operation Error, and 0x09
 * ("STag cannot be Invalidated") and 0xFF ("Unspecified") are listed under both.
 */
export enum RdmapEcode {
  /** Invalid STag (Remote Protection). */
  InvalidStag = 0x00,
  /** Base or bounds violation (Remote Protection). */
  BaseOrBounds = 0x01,
  /** Access rights violation (Remote Protection). */
  AccessRights = 0x02,
  /** STag not associated with RDMAP Stream (Remote Protection). */
  StagNotAssociated = 0x03,
  /** Tagged Offset wrap (Remote Protection). */
  ToWrap = 0x04,
  /** Invalid RDMAP version (Remote Operation). */
  InvalidVersion = 0x05,
  /** Unexpected OpCode (Remote Operation). */
  UnexpectedOpcode = 0x06,
  /** Catastrophic error, localized to RDMAP Stream (Remote Operation). */
  CatastrophicStream = 0x07,
  /** Catastrophic error, global (Remote Operation). */
  CatastrophicGlobal = 0x08,
  /** STag cannot be Invalidated (Remote Protection or Remote Operation). */
  CannotInvalidate = 0x09,
  /** Unspecified Error. */
  Unspecified = 0xff,
}

/** DDP error types (Layer 0x1). RFC 5041 §7 (DDP Error Semantics), IANA "DDP Errors". */
export enum DdpEtype {
  /** Local catastrophic error; Error Code 0x00. */
  LocalCatastrophic = 0x0,
  /** Tagged Buffer Error. */
  TaggedBuffer = 0x1,
  /** Untagged Buffer Error. */
  UntaggedBuffer = 0x2,
  /** Reserved for use by the LLP. */
  ReservedForLlp = 0x3,
}

/** Error code used with {@link DdpEtype.LocalCatastrophic} (RFC 5041 §7: "unspecified, set to zero"). */
export const DDP_ECODE_LOCAL_CATASTROPHIC = 0x00;

/** DDP Tagged Buffer error codes (Error Type 0x1). RFC 5041 §7. */
export enum DdpTaggedEcode {
  InvalidStag = 0x00,
  BaseOrBounds = 0x01,
  StagNotAssociated = 0x02,
  ToWrap = 0x03,
  InvalidVersion = 0x04,
}

/** DDP Untagged Buffer error codes (Error Type 0x2). RFC 5041 §7. */
export enum DdpUntaggedEcode {
  InvalidQn = 0x01,
  /** Invalid MSN - no buffer available. */
  InvalidMsnNoBuffer = 0x02,
  /** Invalid MSN - MSN range is not valid. */
  InvalidMsnRange = 0x03,
  InvalidMo = 0x04,
  /** DDP Message too long for available buffer. */
  MessageTooLong = 0x05,
  InvalidVersion = 0x06,
}

/** LLP error types (Layer 0x2). RFC 5044 §8: MPA is the only one. */
export enum LlpEtype {
  Mpa = 0x0,
}

/** MPA error codes (Layer 0x2, Error Type 0x0). RFC 5044 §8, plus RFC 6581's additions. */
export enum MpaEcode {
  /** TCP connection closed, terminated or lost (RFC 5044). */
  TcpConnectionLost = 0x01,
  /** MPA CRC error: the received CRC does not match (RFC 5044). */
  CrcError = 0x02,
  /** MPA Marker and ULPDU Length field mismatch, i.e. FPDU framing lost (RFC 5044). */
  MarkerMismatch = 0x03,
  /** Invalid MPA Request Frame or MPA Reply Frame (RFC 5044). */
  InvalidRequestReply = 0x04,
  /** Local Catastrophic Error (RFC 6581, enhanced connection establishment only). */
  LocalCatastrophic = 0x05,
  /** Insufficient IRD Resources (RFC 6581). */
  InsufficientIrd = 0x06,
  /** No Matching RTR Option (RFC 6581). */
  NoMatchingRtr = 0x07,
}

const LAYER_NAMES: Record<number, string> = { [TermLayer.RDMAP]: 'RDMAP', [TermLayer.DDP]: 'DDP', [TermLayer.LLP]: 'LLP' };

const RDMAP_ETYPE_NAMES: Record<number, string> = {
  [RdmapEtype.LocalCatastrophic]: 'Local Catastrophic Error',
  [RdmapEtype.RemoteProtection]: 'Remote Protection Error',
  [RdmapEtype.RemoteOperation]: 'Remote Operation Error',
};
const RDMAP_ECODE_NAMES: Record<number, string> = {
  [RdmapEcode.InvalidStag]: 'Invalid STag',
  [RdmapEcode.BaseOrBounds]: 'Base or bounds violation',
  [RdmapEcode.AccessRights]: 'Access rights violation',
  [RdmapEcode.StagNotAssociated]: 'STag not associated with RDMAP Stream',
  [RdmapEcode.ToWrap]: 'TO wrap',
  [RdmapEcode.InvalidVersion]: 'Invalid RDMAP version',
  [RdmapEcode.UnexpectedOpcode]: 'Unexpected OpCode',
  [RdmapEcode.CatastrophicStream]: 'Catastrophic error, localized to RDMAP Stream',
  [RdmapEcode.CatastrophicGlobal]: 'Catastrophic error, global',
  [RdmapEcode.CannotInvalidate]: 'STag cannot be Invalidated',
  [RdmapEcode.Unspecified]: 'Unspecified Error',
};
const DDP_ETYPE_NAMES: Record<number, string> = {
  [DdpEtype.LocalCatastrophic]: 'Local Catastrophic Error',
  [DdpEtype.TaggedBuffer]: 'Tagged Buffer Error',
  [DdpEtype.UntaggedBuffer]: 'Untagged Buffer Error',
  [DdpEtype.ReservedForLlp]: 'Reserved for the LLP',
};
const DDP_TAGGED_NAMES: Record<number, string> = {
  [DdpTaggedEcode.InvalidStag]: 'Invalid STag',
  [DdpTaggedEcode.BaseOrBounds]: 'Base or bounds violation',
  [DdpTaggedEcode.StagNotAssociated]: 'STag not associated with DDP Stream',
  [DdpTaggedEcode.ToWrap]: 'TO wrap',
  [DdpTaggedEcode.InvalidVersion]: 'Invalid DDP version',
};
const DDP_UNTAGGED_NAMES: Record<number, string> = {
  [DdpUntaggedEcode.InvalidQn]: 'Invalid QN',
  [DdpUntaggedEcode.InvalidMsnNoBuffer]: 'Invalid MSN - no buffer available',
  [DdpUntaggedEcode.InvalidMsnRange]: 'Invalid MSN - MSN range is not valid',
  [DdpUntaggedEcode.InvalidMo]: 'Invalid MO',
  [DdpUntaggedEcode.MessageTooLong]: 'DDP Message too long for available buffer',
  [DdpUntaggedEcode.InvalidVersion]: 'Invalid DDP version',
};
const LLP_ETYPE_NAMES: Record<number, string> = { [LlpEtype.Mpa]: 'MPA' };
const MPA_ECODE_NAMES: Record<number, string> = {
  [MpaEcode.TcpConnectionLost]: 'TCP connection closed, terminated or lost',
  [MpaEcode.CrcError]: 'CRC error',
  [MpaEcode.MarkerMismatch]: 'Marker and ULPDU Length field mismatch',
  [MpaEcode.InvalidRequestReply]: 'Invalid MPA Request or Reply Frame',
  [MpaEcode.LocalCatastrophic]: 'Local Catastrophic Error',
  [MpaEcode.InsufficientIrd]: 'Insufficient IRD Resources',
  [MpaEcode.NoMatchingRtr]: 'No Matching RTR Option',
};

const hex = (n: number): string => `0x${n.toString(16).padStart(2, '0')}`;

/** Name of a Terminate layer, or `Layer(0x..)` when it is not one of the three defined. */
export function termLayerName(layer: number): string {
  return LAYER_NAMES[layer] ?? `Layer(${hex(layer)})`;
}

/** Name of an Error Type within `layer`. */
export function termEtypeName(layer: number, etype: number): string {
  const t =
    layer === TermLayer.RDMAP
      ? RDMAP_ETYPE_NAMES
      : layer === TermLayer.DDP
        ? DDP_ETYPE_NAMES
        : layer === TermLayer.LLP
          ? LLP_ETYPE_NAMES
          : undefined;
  return t?.[etype] ?? `EType(${hex(etype)})`;
}

/** Name of an Error Code within `layer`/`etype`. */
export function termEcodeName(layer: number, etype: number, ecode: number): string {
  let t: Record<number, string> | undefined;
  if (layer === TermLayer.RDMAP) {
    if (etype === RdmapEtype.LocalCatastrophic) return 'Local Catastrophic Error';
    t = RDMAP_ECODE_NAMES;
  } else if (layer === TermLayer.DDP) {
    if (etype === DdpEtype.LocalCatastrophic) return 'Local Catastrophic Error';
    t = etype === DdpEtype.TaggedBuffer ? DDP_TAGGED_NAMES : etype === DdpEtype.UntaggedBuffer ? DDP_UNTAGGED_NAMES : undefined;
  } else if (layer === TermLayer.LLP && etype === LlpEtype.Mpa) {
    t = MPA_ECODE_NAMES;
  }
  return t?.[ecode] ?? `ECode(${hex(ecode)})`;
}

/** `LAYER/Error Type/Error Code` with names, for logs and test names. */
export function stringifyTermCode(layer: number, etype: number, ecode: number): string {
  return `${termLayerName(layer)}/${termEtypeName(layer, etype)}/${termEcodeName(layer, etype, ecode)} (${hex(layer)}/${hex(etype)}/${hex(ecode)})`;
}

/**
 * The error every wire decoder throws for malformed input. It carries the Terminate triple
 * (RFC 5040 §4.8) the receiver must report, so the engine can build its Terminate message
 * from it without a second table.
 */
export class TerminateError extends Error {
  /** Stable error code for `err.code` checks. */
  readonly code = 'ERR_IWARP_TERMINATE';
  readonly layer: TermLayer;
  readonly etype: number;
  readonly ecode: number;

  constructor(layer: TermLayer, etype: number, ecode: number, detail?: string) {
    super(`${stringifyTermCode(layer, etype, ecode)}${detail ? `: ${detail}` : ''}`);
    this.layer = layer;
    this.etype = etype;
    this.ecode = ecode;
  }

  /** An LLP (MPA) error, RFC 5044 §8. */
  static mpa(ecode: MpaEcode, detail?: string): TerminateError {
    return new TerminateError(TermLayer.LLP, LlpEtype.Mpa, ecode, detail);
  }

  /** A DDP Tagged Buffer error, RFC 5041 §7. */
  static ddpTagged(ecode: DdpTaggedEcode, detail?: string): TerminateError {
    return new TerminateError(TermLayer.DDP, DdpEtype.TaggedBuffer, ecode, detail);
  }

  /** A DDP Untagged Buffer error, RFC 5041 §7. */
  static ddpUntagged(ecode: DdpUntaggedEcode, detail?: string): TerminateError {
    return new TerminateError(TermLayer.DDP, DdpEtype.UntaggedBuffer, ecode, detail);
  }

  /** A DDP local catastrophic error (RFC 5041 §7), used for segments DDP cannot even parse. */
  static ddpCatastrophic(detail?: string): TerminateError {
    return new TerminateError(TermLayer.DDP, DdpEtype.LocalCatastrophic, DDP_ECODE_LOCAL_CATASTROPHIC, detail);
  }

  /** An RDMAP error, RFC 5040 §4.8. */
  static rdmap(etype: RdmapEtype, ecode: RdmapEcode, detail?: string): TerminateError {
    return new TerminateError(TermLayer.RDMAP, etype, ecode, detail);
  }
}

// On the prototype rather than per instance: stack traces and util.inspect read it from there.
Object.defineProperty(TerminateError.prototype, 'name', { value: 'TerminateError', writable: true, configurable: true });

/** True if `e` is a {@link TerminateError} (also across realms/bundles, by `code`). */
export function isTerminateError(e: unknown): e is TerminateError {
  return e instanceof TerminateError || (e instanceof Error && (e as { code?: unknown }).code === 'ERR_IWARP_TERMINATE');
}
