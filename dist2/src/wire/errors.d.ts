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
export declare enum TermLayer {
    /** RDMAP (RFC 5040). */
    RDMAP = 0,
    /** DDP (RFC 5041). */
    DDP = 1,
    /** The lower layer protocol: MPA over TCP (RFC 5044) for iWARP. */
    LLP = 2
}
/** RDMAP error types (Layer 0x0). RFC 5040 §4.8, IANA "RDMAP Errors". */
export declare enum RdmapEtype {
    /** Local catastrophic error; the Error Code is not interpreted (IANA 0x0/0x0/ALL). */
    LocalCatastrophic = 0,
    /** Remote Protection Error: an STag/TO/access check failed. */
    RemoteProtection = 1,
    /** Remote Operation Error: the message itself is not acceptable. */
    RemoteOperation = 2
}
/**
 * RDMAP error codes. RFC 5040 §4.8. The numbers are unique across the two error types;
 * 0x00–0x04 belong to Remote Protection Error, 0x05–0x08 to Remote Operation Error, and 0x09
 * ("STag cannot be Invalidated") and 0xFF ("Unspecified") are listed under both.
 */
export declare enum RdmapEcode {
    /** Invalid STag (Remote Protection). */
    InvalidStag = 0,
    /** Base or bounds violation (Remote Protection). */
    BaseOrBounds = 1,
    /** Access rights violation (Remote Protection). */
    AccessRights = 2,
    /** STag not associated with RDMAP Stream (Remote Protection). */
    StagNotAssociated = 3,
    /** Tagged Offset wrap (Remote Protection). */
    ToWrap = 4,
    /** Invalid RDMAP version (Remote Operation). */
    InvalidVersion = 5,
    /** Unexpected OpCode (Remote Operation). */
    UnexpectedOpcode = 6,
    /** Catastrophic error, localized to RDMAP Stream (Remote Operation). */
    CatastrophicStream = 7,
    /** Catastrophic error, global (Remote Operation). */
    CatastrophicGlobal = 8,
    /** STag cannot be Invalidated (Remote Protection or Remote Operation). */
    CannotInvalidate = 9,
    /** Unspecified Error. */
    Unspecified = 255
}
/** DDP error types (Layer 0x1). RFC 5041 §7 (DDP Error Semantics), IANA "DDP Errors". */
export declare enum DdpEtype {
    /** Local catastrophic error; Error Code 0x00. */
    LocalCatastrophic = 0,
    /** Tagged Buffer Error. */
    TaggedBuffer = 1,
    /** Untagged Buffer Error. */
    UntaggedBuffer = 2,
    /** Reserved for use by the LLP. */
    ReservedForLlp = 3
}
/** Error code used with {@link DdpEtype.LocalCatastrophic} (RFC 5041 §7: "unspecified, set to zero"). */
export declare const DDP_ECODE_LOCAL_CATASTROPHIC = 0;
/** DDP Tagged Buffer error codes (Error Type 0x1). RFC 5041 §7. */
export declare enum DdpTaggedEcode {
    InvalidStag = 0,
    BaseOrBounds = 1,
    StagNotAssociated = 2,
    ToWrap = 3,
    InvalidVersion = 4
}
/** DDP Untagged Buffer error codes (Error Type 0x2). RFC 5041 §7. */
export declare enum DdpUntaggedEcode {
    InvalidQn = 1,
    /** Invalid MSN - no buffer available. */
    InvalidMsnNoBuffer = 2,
    /** Invalid MSN - MSN range is not valid. */
    InvalidMsnRange = 3,
    InvalidMo = 4,
    /** DDP Message too long for available buffer. */
    MessageTooLong = 5,
    InvalidVersion = 6
}
/** LLP error types (Layer 0x2). RFC 5044 §8: MPA is the only one. */
export declare enum LlpEtype {
    Mpa = 0
}
/** MPA error codes (Layer 0x2, Error Type 0x0). RFC 5044 §8, plus RFC 6581's additions. */
export declare enum MpaEcode {
    /** TCP connection closed, terminated or lost (RFC 5044). */
    TcpConnectionLost = 1,
    /** MPA CRC error: the received CRC does not match (RFC 5044). */
    CrcError = 2,
    /** MPA Marker and ULPDU Length field mismatch, i.e. FPDU framing lost (RFC 5044). */
    MarkerMismatch = 3,
    /** Invalid MPA Request Frame or MPA Reply Frame (RFC 5044). */
    InvalidRequestReply = 4,
    /** Local Catastrophic Error (RFC 6581, enhanced connection establishment only). */
    LocalCatastrophic = 5,
    /** Insufficient IRD Resources (RFC 6581). */
    InsufficientIrd = 6,
    /** No Matching RTR Option (RFC 6581). */
    NoMatchingRtr = 7
}
/** Name of a Terminate layer, or `Layer(0x..)` when it is not one of the three defined. */
export declare function termLayerName(layer: number): string;
/** Name of an Error Type within `layer`. */
export declare function termEtypeName(layer: number, etype: number): string;
/** Name of an Error Code within `layer`/`etype`. */
export declare function termEcodeName(layer: number, etype: number, ecode: number): string;
/** `LAYER/Error Type/Error Code` with names, for logs and test names. */
export declare function stringifyTermCode(layer: number, etype: number, ecode: number): string;
/**
 * The error every wire decoder throws for malformed input. It carries the Terminate triple
 * (RFC 5040 §4.8) the receiver must report, so the engine can build its Terminate message
 * from it without a second table.
 */
export declare class TerminateError extends Error {
    /** Stable error code for `err.code` checks. */
    readonly code = "ERR_IWARP_TERMINATE";
    readonly layer: TermLayer;
    readonly etype: number;
    readonly ecode: number;
    constructor(layer: TermLayer, etype: number, ecode: number, detail?: string);
    /** An LLP (MPA) error, RFC 5044 §8. */
    static mpa(ecode: MpaEcode, detail?: string): TerminateError;
    /** A DDP Tagged Buffer error, RFC 5041 §7. */
    static ddpTagged(ecode: DdpTaggedEcode, detail?: string): TerminateError;
    /** A DDP Untagged Buffer error, RFC 5041 §7. */
    static ddpUntagged(ecode: DdpUntaggedEcode, detail?: string): TerminateError;
    /** A DDP local catastrophic error (RFC 5041 §7), used for segments DDP cannot even parse. */
    static ddpCatastrophic(detail?: string): TerminateError;
    /** An RDMAP error, RFC 5040 §4.8. */
    static rdmap(etype: RdmapEtype, ecode: RdmapEcode, detail?: string): TerminateError;
}
/** True if `e` is a {@link TerminateError} (also across realms/bundles, by `code`). */
export declare function isTerminateError(e: unknown): e is TerminateError;
