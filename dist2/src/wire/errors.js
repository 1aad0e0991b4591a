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
export var TermLayer;
(function (TermLayer) {
    /** RDMAP (RFC 5040). */
    TermLayer[TermLayer["RDMAP"] = 0] = "RDMAP";
    /** DDP (RFC 5041). */
    TermLayer[TermLayer["DDP"] = 1] = "DDP";
    /** The lower layer protocol: MPA over TCP (RFC 5044) for iWARP. */
    TermLayer[TermLayer["LLP"] = 2] = "LLP";
})(TermLayer || (TermLayer = {}));
/** RDMAP error types (Layer 0x0). RFC 5040 §4.8, IANA "RDMAP Errors". */
export var RdmapEtype;
(function (RdmapEtype) {
    /** Local catastrophic error; the Error Code is not interpreted (IANA 0x0/0x0/ALL). */
    RdmapEtype[RdmapEtype["LocalCatastrophic"] = 0] = "LocalCatastrophic";
    /** Remote Protection Error: an STag/TO/access check failed. */
    RdmapEtype[RdmapEtype["RemoteProtection"] = 1] = "RemoteProtection";
    /** Remote Operation Error: the message itself is not acceptable. */
    RdmapEtype[RdmapEtype["RemoteOperation"] = 2] = "RemoteOperation";
})(RdmapEtype || (RdmapEtype = {}));
/**
 * RDMAP error codes. RFC 5040 §4.8. The numbers are unique across the two error types;
 * 0x00–0x04 belong to Remote Protection Error, 0x05–0x08 to Remote Operation Error, and 0x09
 * ("STag cannot be Invalidated") and 0xFF ("Unspecified") are listed under both.
 */
export var RdmapEcode;
(function (RdmapEcode) {
    /** Invalid STag (Remote Protection). */
    RdmapEcode[RdmapEcode["InvalidStag"] = 0] = "InvalidStag";
    /** Base or bounds violation (Remote Protection). */
    RdmapEcode[RdmapEcode["BaseOrBounds"] = 1] = "BaseOrBounds";
    /** Access rights violation (Remote Protection). */
    RdmapEcode[RdmapEcode["AccessRights"] = 2] = "AccessRights";
    /** STag not associated with RDMAP Stream (Remote Protection). */
    RdmapEcode[RdmapEcode["StagNotAssociated"] = 3] = "StagNotAssociated";
    /** Tagged Offset wrap (Remote Protection). */
    RdmapEcode[RdmapEcode["ToWrap"] = 4] = "ToWrap";
    /** Invalid RDMAP version (Remote Operation). */
    RdmapEcode[RdmapEcode["InvalidVersion"] = 5] = "InvalidVersion";
    /** Unexpected OpCode (Remote Operation). */
    RdmapEcode[RdmapEcode["UnexpectedOpcode"] = 6] = "UnexpectedOpcode";
    /** Catastrophic error, localized to RDMAP Stream (Remote Operation). */
    RdmapEcode[RdmapEcode["CatastrophicStream"] = 7] = "CatastrophicStream";
    /** Catastrophic error, global (Remote Operation). */
    RdmapEcode[RdmapEcode["CatastrophicGlobal"] = 8] = "CatastrophicGlobal";
    /** STag cannot be Invalidated (Remote Protection or Remote Operation). */
    RdmapEcode[RdmapEcode["CannotInvalidate"] = 9] = "CannotInvalidate";
    /** Unspecified Error. */
    RdmapEcode[RdmapEcode["Unspecified"] = 255] = "Unspecified";
})(RdmapEcode || (RdmapEcode = {}));
/** DDP error types (Layer 0x1). RFC 5041 §7 (DDP Error Semantics), IANA "DDP Errors". */
export var DdpEtype;
(function (DdpEtype) {
    /** Local catastrophic error; Error Code 0x00. */
    DdpEtype[DdpEtype["LocalCatastrophic"] = 0] = "LocalCatastrophic";
    /** Tagged Buffer Error. */
    DdpEtype[DdpEtype["TaggedBuffer"] = 1] = "TaggedBuffer";
    /** Untagged Buffer Error. */
    DdpEtype[DdpEtype["UntaggedBuffer"] = 2] = "UntaggedBuffer";
    /** Reserved for use by the LLP. */
    DdpEtype[DdpEtype["ReservedForLlp"] = 3] = "ReservedForLlp";
})(DdpEtype || (DdpEtype = {}));
/** Error code used with {@link DdpEtype.LocalCatastrophic} (RFC 5041 §7: "unspecified, set to zero"). */
export const DDP_ECODE_LOCAL_CATASTROPHIC = 0x00;
/** DDP Tagged Buffer error codes (Error Type 0x1). RFC 5041 §7. */
export var DdpTaggedEcode;
(function (DdpTaggedEcode) {
    DdpTaggedEcode[DdpTaggedEcode["InvalidStag"] = 0] = "InvalidStag";
    DdpTaggedEcode[DdpTaggedEcode["BaseOrBounds"] = 1] = "BaseOrBounds";
    DdpTaggedEcode[DdpTaggedEcode["StagNotAssociated"] = 2] = "StagNotAssociated";
    DdpTaggedEcode[DdpTaggedEcode["ToWrap"] = 3] = "ToWrap";
    DdpTaggedEcode[DdpTaggedEcode["InvalidVersion"] = 4] = "InvalidVersion";
})(DdpTaggedEcode || (DdpTaggedEcode = {}));
/** DDP Untagged Buffer error codes (Error Type 0x2). RFC 5041 §7. */
export var DdpUntaggedEcode;
(function (DdpUntaggedEcode) {
    DdpUntaggedEcode[DdpUntaggedEcode["InvalidQn"] = 1] = "InvalidQn";
    /** Invalid MSN - no buffer available. */
    DdpUntaggedEcode[DdpUntaggedEcode["InvalidMsnNoBuffer"] = 2] = "InvalidMsnNoBuffer";
    /** Invalid MSN - MSN range is not valid. */
    DdpUntaggedEcode[DdpUntaggedEcode["InvalidMsnRange"] = 3] = "InvalidMsnRange";
    DdpUntaggedEcode[DdpUntaggedEcode["InvalidMo"] = 4] = "InvalidMo";
    /** DDP Message too long for available buffer. */
    DdpUntaggedEcode[DdpUntaggedEcode["MessageTooLong"] = 5] = "MessageTooLong";
    DdpUntaggedEcode[DdpUntaggedEcode["InvalidVersion"] = 6] = "InvalidVersion";
})(DdpUntaggedEcode || (DdpUntaggedEcode = {}));
/** LLP error types (Layer 0x2). RFC 5044 §8: MPA is the only one. */
export var LlpEtype;
(function (LlpEtype) {
    LlpEtype[LlpEtype["Mpa"] = 0] = "Mpa";
})(LlpEtype || (LlpEtype = {}));
/** MPA error codes (Layer 0x2, Error Type 0x0). RFC 5044 §8, plus RFC 6581's additions. */
export var MpaEcode;
(function (MpaEcode) {
    /** TCP connection closed, terminated or lost (RFC 5044). */
    MpaEcode[MpaEcode["TcpConnectionLost"] = 1] = "TcpConnectionLost";
    /** MPA CRC error: the received CRC does not match (RFC 5044). */
    MpaEcode[MpaEcode["CrcError"] = 2] = "CrcError";
    /** MPA Marker and ULPDU Length field mismatch, i.e. FPDU framing lost (RFC 5044). */
    MpaEcode[MpaEcode["MarkerMismatch"] = 3] = "MarkerMismatch";
    /** Invalid MPA Request Frame or MPA Reply Frame (RFC 5044). */
    MpaEcode[MpaEcode["InvalidRequestReply"] = 4] = "InvalidRequestReply";
    /** Local Catastrophic Error (RFC 6581, enhanced connection establishment only). */
    MpaEcode[MpaEcode["LocalCatastrophic"] = 5] = "LocalCatastrophic";
    /** Insufficient IRD Resources (RFC 6581). */
    MpaEcode[MpaEcode["InsufficientIrd"] = 6] = "InsufficientIrd";
    /** No Matching RTR Option (RFC 6581). */
    MpaEcode[MpaEcode["NoMatchingRtr"] = 7] = "NoMatchingRtr";
})(MpaEcode || (MpaEcode = {}));
const LAYER_NAMES = { [TermLayer.RDMAP]: 'RDMAP', [TermLayer.DDP]: 'DDP', [TermLayer.LLP]: 'LLP' };
const RDMAP_ETYPE_NAMES = {
    [RdmapEtype.LocalCatastrophic]: 'Local Catastrophic Error',
    [RdmapEtype.RemoteProtection]: 'Remote Protection Error',
    [RdmapEtype.RemoteOperation]: 'Remote Operation Error',
};
const RDMAP_ECODE_NAMES = {
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
const DDP_ETYPE_NAMES = {
    [DdpEtype.LocalCatastrophic]: 'Local Catastrophic Error',
    [DdpEtype.TaggedBuffer]: 'Tagged Buffer Error',
    [DdpEtype.UntaggedBuffer]: 'Untagged Buffer Error',
    [DdpEtype.ReservedForLlp]: 'Reserved for the LLP',
};
const DDP_TAGGED_NAMES = {
    [DdpTaggedEcode.InvalidStag]: 'Invalid STag',
    [DdpTaggedEcode.BaseOrBounds]: 'Base or bounds violation',
    [DdpTaggedEcode.StagNotAssociated]: 'STag not associated with DDP Stream',
    [DdpTaggedEcode.ToWrap]: 'TO wrap',
    [DdpTaggedEcode.InvalidVersion]: 'Invalid DDP version',
};
const DDP_UNTAGGED_NAMES = {
    [DdpUntaggedEcode.InvalidQn]: 'Invalid QN',
    [DdpUntaggedEcode.InvalidMsnNoBuffer]: 'Invalid MSN - no buffer available',
    [DdpUntaggedEcode.InvalidMsnRange]: 'Invalid MSN - MSN range is not valid',
    [DdpUntaggedEcode.InvalidMo]: 'Invalid MO',
    [DdpUntaggedEcode.MessageTooLong]: 'DDP Message too long for available buffer',
    [DdpUntaggedEcode.InvalidVersion]: 'Invalid DDP version',
};
const LLP_ETYPE_NAMES = { [LlpEtype.Mpa]: 'MPA' };
const MPA_ECODE_NAMES = {
    [MpaEcode.TcpConnectionLost]: 'TCP connection closed, terminated or lost',
    [MpaEcode.CrcError]: 'CRC error',
    [MpaEcode.MarkerMismatch]: 'Marker and ULPDU Length field mismatch',
    [MpaEcode.InvalidRequestReply]: 'Invalid MPA Request or Reply Frame',
    [MpaEcode.LocalCatastrophic]: 'Local Catastrophic Error',
    [MpaEcode.InsufficientIrd]: 'Insufficient IRD Resources',
    [MpaEcode.NoMatchingRtr]: 'No Matching RTR Option',
};
const hex = (n) => `0x${n.toString(16).padStart(2, '0')}`;
/** Name of a Terminate layer, or `Layer(0x..)` when it is not one of the three defined. */
export function termLayerName(layer) {
    return LAYER_NAMES[layer] ?? `Layer(${hex(layer)})`;
}
/** Name of an Error Type within `layer`. */
export function termEtypeName(layer, etype) {
    const t = layer === TermLayer.RDMAP
        ? RDMAP_ETYPE_NAMES
        : layer === TermLayer.DDP
            ? DDP_ETYPE_NAMES
            : layer === TermLayer.LLP
                ? LLP_ETYPE_NAMES
                : undefined;
    return t?.[etype] ?? `EType(${hex(etype)})`;
}
/** Name of an Error Code within `layer`/`etype`. */
export function termEcodeName(layer, etype, ecode) {
    let t;
    if (layer === TermLayer.RDMAP) {
        if (etype === RdmapEtype.LocalCatastrophic)
            return 'Local Catastrophic Error';
        t = RDMAP_ECODE_NAMES;
    }
    else if (layer === TermLayer.DDP) {
        if (etype === DdpEtype.LocalCatastrophic)
            return 'Local Catastrophic Error';
        t =
            etype === DdpEtype.TaggedBuffer
                ? DDP_TAGGED_NAMES
                : etype === DdpEtype.UntaggedBuffer
                    ? DDP_UNTAGGED_NAMES
                    : undefined;
    }
    else if (layer === TermLayer.LLP && etype === LlpEtype.Mpa) {
        t = MPA_ECODE_NAMES;
    }
    return t?.[ecode] ?? `ECode(${hex(ecode)})`;
}
/** `LAYER/Error Type/Error Code` with names, for logs and test names. */
export function stringifyTermCode(layer, etype, ecode) {
    return `${termLayerName(layer)}/${termEtypeName(layer, etype)}/${termEcodeName(layer, etype, ecode)} (${hex(layer)}/${hex(etype)}/${hex(ecode)})`;
}
/**
 * The error every wire decoder throws for malformed input. It carries the Terminate triple
 * (RFC 5040 §4.8) the receiver must report, so the engine can build its Terminate message
 * from it without a second table.
 */
export class TerminateError extends Error {
    /** Stable error code for `err.code` checks. */
    code = 'ERR_IWARP_TERMINATE';
    layer;
    etype;
    ecode;
    constructor(layer, etype, ecode, detail) {
        super(`${stringifyTermCode(layer, etype, ecode)}${detail ? `: ${detail}` : ''}`);
        this.layer = layer;
        this.etype = etype;
        this.ecode = ecode;
    }
    /** An LLP (MPA) error, RFC 5044 §8. */
    static mpa(ecode, detail) {
        return new TerminateError(TermLayer.LLP, LlpEtype.Mpa, ecode, detail);
    }
    /** A DDP Tagged Buffer error, RFC 5041 §7. */
    static ddpTagged(ecode, detail) {
        return new TerminateError(TermLayer.DDP, DdpEtype.TaggedBuffer, ecode, detail);
    }
    /** A DDP Untagged Buffer error, RFC 5041 §7. */
    static ddpUntagged(ecode, detail) {
        return new TerminateError(TermLayer.DDP, DdpEtype.UntaggedBuffer, ecode, detail);
    }
    /** A DDP local catastrophic error (RFC 5041 §7), used for segments DDP cannot even parse. */
    static ddpCatastrophic(detail) {
        return new TerminateError(TermLayer.DDP, DdpEtype.LocalCatastrophic, DDP_ECODE_LOCAL_CATASTROPHIC, detail);
    }
    /** An RDMAP error, RFC 5040 §4.8. */
    static rdmap(etype, ecode, detail) {
        return new TerminateError(TermLayer.RDMAP, etype, ecode, detail);
    }
}
// On the prototype rather than per instance: stack traces and util.inspect read it from there.
Object.defineProperty(TerminateError.prototype, 'name', { value: 'TerminateError', writable: true, configurable: true });
/** True if `e` is a {@link TerminateError} (also across realms/bundles, by `code`). */
export function isTerminateError(e) {
    return e instanceof TerminateError || (e instanceof Error && e.code === 'ERR_IWARP_TERMINATE');
}
//# sourceMappingURL=errors.js.map