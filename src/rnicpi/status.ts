/**
 * RNICPI 1.0 return codes (`ri_api_return_t`).
 *
 * Numeric values follow the enum order of the `<rnicpi.h>` header (spec Ch. 10.1), which is also
 * the order of the Ch. 8 `ri_api_return_t` reference page. The canonical member names are the
 * header/enum spellings; the reference pages (Ch. 7) sometimes use other spellings, which are
 * exported as aliases only (see {@link RI_RET_ALIASES} and `docs/spec-notes.md`, section RNICPI).
 *
 * @module
 */

/** `ri_api_return_t`: the status every `ri_*` call returns. Values are the header's enum order. */
export enum RiRet {
  SUCCESS = 0,

  // generic errors
  RESOURCE_SHORTAGE = 1,
  INVALID_PARAMETER = 2,
  NO_PERMISSION = 3,
  XPORT_UNSUPPORTED = 4,
  OP_UNSUPPORTED = 5,
  BUFFER_TOO_SMALL = 6,
  FAIL = 7,

  // options
  QP_RESIZE_UNSUPPORTED = 8,
  SRQ_UNSUPPORTED = 9,
  SRQ_RESIZE_UNSUPPORTED = 10,
  EXT_BMM_UNSUPPORTED = 11,
  EXT_ZBVA_UNSUPPORTED = 12,
  EXT_LIF_UNSUPPORTED = 13,
  RNIC_ATOMICS_UNSUPPORTED = 14,

  // VP
  VP_INVALID_HANDLE = 15,
  INVALID_DEV_INFO = 16,
  INVALID_HW_PATH = 17,
  INVALID_LIB_PATH = 18,
  INVALID_PBL_MODE = 19,
  INVALID_VP_VERSION = 20,

  // RNIC
  RNIC_INVALID_HANDLE = 21,
  RNIC_INUSE = 22,
  RNIC_NOT_OPEN = 23,

  // PD
  PD_INVALID_HANDLE = 24,
  PD_INUSE = 25,

  // CQ
  CQ_INVALID_HANDLE = 26,
  CQ_CAPACITY_EXCEEDED = 27,
  CQ_EMPTY = 28,
  CQ_ERROR = 29,
  CQ_INUSE = 30,
  CQ_INVALID_EVENT_HANDLER = 31,
  CQ_NO_EVENT_HANDLER = 32,
  CQ_WOULD_OVERFLOW = 33,
  INVALID_HANDLER_ID = 34,

  // QP
  QP_INVALID_HANDLE = 35,
  MIGRATION_STATE_INVALID = 36,
  QP_ATTRIBUTE_CANT_CHANGE = 37,
  QP_CAPACITY_EXCEEDED = 38,
  QP_INVALID_SERVICE_TYPE = 39,
  QP_INVALID_SPECIAL_TYPE = 40,
  QP_INVALID_STATE = 41,
  QP_CANNOT_SHRINK = 42,
  QP_INUSE = 43,
  RNIC_INVALID_MTU = 44,
  RNIC_INVALID_PKEY_ENTRY = 45,
  RNIC_INVALID_PKEY_INDEX = 46,
  RNIC_INVALID_PORT = 47,
  RNIC_INVALID_RNR_VALUE = 48,
  RNIC_IRD_ORD_EXCEEDED = 49,
  RNIC_NOT_IN_BLOCK_MODE = 50,
  RNIC_NOT_IN_PAGE_MODE = 51,
  RNIC_SG_LIMIT_EXCEEDED = 52,
  RNIC_WR_LIMIT_EXCEEDED = 53,
  STILL_FLUSHING_WQES = 54,
  WR_INVALID_FLAGS = 55,
  WR_INVALID_TYPE = 56,
  WR_SG_INVALID_FORMAT = 57,

  // SRQ
  SRQ_INVALID_HANDLE = 58,
  QP_TIED_TO_SRQ = 59,
  SRQ_CANNOT_SHRINK = 60,
  SRQ_IN_ERROR = 61,
  SRQ_INUSE = 62,
  SRQ_LIMIT_OUT_OF_RANGE = 63,

  // MR
  MR_INVALID_HANDLE = 64,
  MEM_INVALID_ACCESS = 65,
  MEM_INVALID_ADDRESS = 66,
  MEM_INVALID_LENGTH = 67,
  MEM_INVALID_OFFSET = 68,
  MEM_INVALID_LTAG = 69,
  MEM_INVALID_PBLE = 70,
  MEM_INVALID_PBLE_LENGTH = 71,
  MEM_INVALID_RTAG = 72,

  // MW
  MW_INVALID_HANDLE = 73,
  INVALID_WINDOW_TYPE = 74,
  WINDOWS_BOUND = 75,
  WINDOW_TYPE_UNSUPPORTED = 76,

  // AH / multicast
  ADDRESS_HANDLE_INVALID = 77,
  MGID_INVALID = 78,
  MLID_INVALID = 79,
  MULTICAST_ATTACHED = 80,
  RNIC_QPS_PER_MCAST_PORT_EXCEEDED = 81,

  // LLP
  INVALID_LL_HANDLE = 82,
  INVALID_DDP_RDMAP_VERSION = 83,
  LL_BAD_STATE = 84,
  MPA_ATTR_UNSUPPORTED = 85,
}

/** `ri_api_return_t` under its spec type name. */
export type ri_api_return_t = RiRet;

/** Every code except {@link RiRet.SUCCESS}. `CQ_EMPTY` is a "non-error" but still a failure status. */
export type RiErrorCode = Exclude<RiRet, RiRet.SUCCESS>;

/** Number of defined codes (0 … {@link RI_RET_MAX}). */
export const RI_RET_COUNT = 86;
/** Highest defined code. */
export const RI_RET_MAX = RiRet.MPA_ATTR_UNSUPPORTED;

// ---------------------------------------------------------------------------------------------
// Canonical named constants, spelled as in the header (`RI_RET_<member>`).
// ---------------------------------------------------------------------------------------------

export const RI_RET_SUCCESS = RiRet.SUCCESS;
export const RI_RET_RESOURCE_SHORTAGE = RiRet.RESOURCE_SHORTAGE;
export const RI_RET_INVALID_PARAMETER = RiRet.INVALID_PARAMETER;
export const RI_RET_NO_PERMISSION = RiRet.NO_PERMISSION;
export const RI_RET_XPORT_UNSUPPORTED = RiRet.XPORT_UNSUPPORTED;
export const RI_RET_OP_UNSUPPORTED = RiRet.OP_UNSUPPORTED;
export const RI_RET_BUFFER_TOO_SMALL = RiRet.BUFFER_TOO_SMALL;
export const RI_RET_FAIL = RiRet.FAIL;
export const RI_RET_QP_RESIZE_UNSUPPORTED = RiRet.QP_RESIZE_UNSUPPORTED;
export const RI_RET_SRQ_UNSUPPORTED = RiRet.SRQ_UNSUPPORTED;
export const RI_RET_SRQ_RESIZE_UNSUPPORTED = RiRet.SRQ_RESIZE_UNSUPPORTED;
export const RI_RET_EXT_BMM_UNSUPPORTED = RiRet.EXT_BMM_UNSUPPORTED;
export const RI_RET_EXT_ZBVA_UNSUPPORTED = RiRet.EXT_ZBVA_UNSUPPORTED;
export const RI_RET_EXT_LIF_UNSUPPORTED = RiRet.EXT_LIF_UNSUPPORTED;
export const RI_RET_RNIC_ATOMICS_UNSUPPORTED = RiRet.RNIC_ATOMICS_UNSUPPORTED;
export const RI_RET_VP_INVALID_HANDLE = RiRet.VP_INVALID_HANDLE;
export const RI_RET_INVALID_DEV_INFO = RiRet.INVALID_DEV_INFO;
export const RI_RET_INVALID_HW_PATH = RiRet.INVALID_HW_PATH;
export const RI_RET_INVALID_LIB_PATH = RiRet.INVALID_LIB_PATH;
export const RI_RET_INVALID_PBL_MODE = RiRet.INVALID_PBL_MODE;
export const RI_RET_INVALID_VP_VERSION = RiRet.INVALID_VP_VERSION;
export const RI_RET_RNIC_INVALID_HANDLE = RiRet.RNIC_INVALID_HANDLE;
export const RI_RET_RNIC_INUSE = RiRet.RNIC_INUSE;
export const RI_RET_RNIC_NOT_OPEN = RiRet.RNIC_NOT_OPEN;
export const RI_RET_PD_INVALID_HANDLE = RiRet.PD_INVALID_HANDLE;
export const RI_RET_PD_INUSE = RiRet.PD_INUSE;
export const RI_RET_CQ_INVALID_HANDLE = RiRet.CQ_INVALID_HANDLE;
export const RI_RET_CQ_CAPACITY_EXCEEDED = RiRet.CQ_CAPACITY_EXCEEDED;
export const RI_RET_CQ_EMPTY = RiRet.CQ_EMPTY;
export const RI_RET_CQ_ERROR = RiRet.CQ_ERROR;
export const RI_RET_CQ_INUSE = RiRet.CQ_INUSE;
export const RI_RET_CQ_INVALID_EVENT_HANDLER = RiRet.CQ_INVALID_EVENT_HANDLER;
export const RI_RET_CQ_NO_EVENT_HANDLER = RiRet.CQ_NO_EVENT_HANDLER;
export const RI_RET_CQ_WOULD_OVERFLOW = RiRet.CQ_WOULD_OVERFLOW;
export const RI_RET_INVALID_HANDLER_ID = RiRet.INVALID_HANDLER_ID;
export const RI_RET_QP_INVALID_HANDLE = RiRet.QP_INVALID_HANDLE;
export const RI_RET_MIGRATION_STATE_INVALID = RiRet.MIGRATION_STATE_INVALID;
export const RI_RET_QP_ATTRIBUTE_CANT_CHANGE = RiRet.QP_ATTRIBUTE_CANT_CHANGE;
export const RI_RET_QP_CAPACITY_EXCEEDED = RiRet.QP_CAPACITY_EXCEEDED;
export const RI_RET_QP_INVALID_SERVICE_TYPE = RiRet.QP_INVALID_SERVICE_TYPE;
export const RI_RET_QP_INVALID_SPECIAL_TYPE = RiRet.QP_INVALID_SPECIAL_TYPE;
export const RI_RET_QP_INVALID_STATE = RiRet.QP_INVALID_STATE;
export const RI_RET_QP_CANNOT_SHRINK = RiRet.QP_CANNOT_SHRINK;
export const RI_RET_QP_INUSE = RiRet.QP_INUSE;
export const RI_RET_RNIC_INVALID_MTU = RiRet.RNIC_INVALID_MTU;
export const RI_RET_RNIC_INVALID_PKEY_ENTRY = RiRet.RNIC_INVALID_PKEY_ENTRY;
export const RI_RET_RNIC_INVALID_PKEY_INDEX = RiRet.RNIC_INVALID_PKEY_INDEX;
export const RI_RET_RNIC_INVALID_PORT = RiRet.RNIC_INVALID_PORT;
export const RI_RET_RNIC_INVALID_RNR_VALUE = RiRet.RNIC_INVALID_RNR_VALUE;
export const RI_RET_RNIC_IRD_ORD_EXCEEDED = RiRet.RNIC_IRD_ORD_EXCEEDED;
export const RI_RET_RNIC_NOT_IN_BLOCK_MODE = RiRet.RNIC_NOT_IN_BLOCK_MODE;
export const RI_RET_RNIC_NOT_IN_PAGE_MODE = RiRet.RNIC_NOT_IN_PAGE_MODE;
export const RI_RET_RNIC_SG_LIMIT_EXCEEDED = RiRet.RNIC_SG_LIMIT_EXCEEDED;
export const RI_RET_RNIC_WR_LIMIT_EXCEEDED = RiRet.RNIC_WR_LIMIT_EXCEEDED;
export const RI_RET_STILL_FLUSHING_WQES = RiRet.STILL_FLUSHING_WQES;
export const RI_RET_WR_INVALID_FLAGS = RiRet.WR_INVALID_FLAGS;
export const RI_RET_WR_INVALID_TYPE = RiRet.WR_INVALID_TYPE;
export const RI_RET_WR_SG_INVALID_FORMAT = RiRet.WR_SG_INVALID_FORMAT;
export const RI_RET_SRQ_INVALID_HANDLE = RiRet.SRQ_INVALID_HANDLE;
export const RI_RET_QP_TIED_TO_SRQ = RiRet.QP_TIED_TO_SRQ;
export const RI_RET_SRQ_CANNOT_SHRINK = RiRet.SRQ_CANNOT_SHRINK;
export const RI_RET_SRQ_IN_ERROR = RiRet.SRQ_IN_ERROR;
export const RI_RET_SRQ_INUSE = RiRet.SRQ_INUSE;
export const RI_RET_SRQ_LIMIT_OUT_OF_RANGE = RiRet.SRQ_LIMIT_OUT_OF_RANGE;
export const RI_RET_MR_INVALID_HANDLE = RiRet.MR_INVALID_HANDLE;
export const RI_RET_MEM_INVALID_ACCESS = RiRet.MEM_INVALID_ACCESS;
export const RI_RET_MEM_INVALID_ADDRESS = RiRet.MEM_INVALID_ADDRESS;
export const RI_RET_MEM_INVALID_LENGTH = RiRet.MEM_INVALID_LENGTH;
export const RI_RET_MEM_INVALID_OFFSET = RiRet.MEM_INVALID_OFFSET;
export const RI_RET_MEM_INVALID_LTAG = RiRet.MEM_INVALID_LTAG;
export const RI_RET_MEM_INVALID_PBLE = RiRet.MEM_INVALID_PBLE;
export const RI_RET_MEM_INVALID_PBLE_LENGTH = RiRet.MEM_INVALID_PBLE_LENGTH;
export const RI_RET_MEM_INVALID_RTAG = RiRet.MEM_INVALID_RTAG;
export const RI_RET_MW_INVALID_HANDLE = RiRet.MW_INVALID_HANDLE;
export const RI_RET_INVALID_WINDOW_TYPE = RiRet.INVALID_WINDOW_TYPE;
export const RI_RET_WINDOWS_BOUND = RiRet.WINDOWS_BOUND;
export const RI_RET_WINDOW_TYPE_UNSUPPORTED = RiRet.WINDOW_TYPE_UNSUPPORTED;
export const RI_RET_ADDRESS_HANDLE_INVALID = RiRet.ADDRESS_HANDLE_INVALID;
export const RI_RET_MGID_INVALID = RiRet.MGID_INVALID;
export const RI_RET_MLID_INVALID = RiRet.MLID_INVALID;
export const RI_RET_MULTICAST_ATTACHED = RiRet.MULTICAST_ATTACHED;
export const RI_RET_RNIC_QPS_PER_MCAST_PORT_EXCEEDED = RiRet.RNIC_QPS_PER_MCAST_PORT_EXCEEDED;
export const RI_RET_INVALID_LL_HANDLE = RiRet.INVALID_LL_HANDLE;
export const RI_RET_INVALID_DDP_RDMAP_VERSION = RiRet.INVALID_DDP_RDMAP_VERSION;
export const RI_RET_LL_BAD_STATE = RiRet.LL_BAD_STATE;
export const RI_RET_MPA_ATTR_UNSUPPORTED = RiRet.MPA_ATTR_UNSUPPORTED;

// ---------------------------------------------------------------------------------------------
// Aliases: spellings used by the Ch. 7 reference pages / Ch. 8 text that are not enum members
//. They are the same numbers; riRetName() always reports the canonical name.
// ---------------------------------------------------------------------------------------------

/** Ch. 7 `ri_qp_modify`/`ri_qp_postsq` spelling of {@link RiRet.RNIC_ATOMICS_UNSUPPORTED}. */
export const RI_RET_RNIC_ATOMICS_NOT_SUPPORTED = RiRet.RNIC_ATOMICS_UNSUPPORTED;
/** Ch. 7 `ri_qp_postsq` spelling of {@link RiRet.EXT_BMM_UNSUPPORTED}. */
export const RI_RET_BASE_MEM_EXTN_UNSUPPORTED = RiRet.EXT_BMM_UNSUPPORTED;
/** Ch. 7 `ri_qp_postsq` spelling of {@link RiRet.RNIC_NOT_IN_BLOCK_MODE}. */
export const RI_RET_NOT_IN_BLOCK_MODE = RiRet.RNIC_NOT_IN_BLOCK_MODE;
/** Ch. 7 `ri_qp_postsq` spelling of {@link RiRet.RNIC_NOT_IN_PAGE_MODE}. */
export const RI_RET_NOT_IN_PAGE_MODE = RiRet.RNIC_NOT_IN_PAGE_MODE;
/** Ch. 7 (`ri_srq_create`, `ri_ltag_alloc`, `ri_mw_alloc`, ...) spelling of {@link RiRet.PD_INVALID_HANDLE}. */
export const RI_RET_PD_INVALID = RiRet.PD_INVALID_HANDLE;
/** Ch. 7 (`ri_srq_create`, `ri_srq_modify`) spelling of {@link RiRet.INVALID_PARAMETER}. */
export const RI_RET_RNIC_INVALID_PARAMETER = RiRet.INVALID_PARAMETER;
/** Ch. 7 `ri_special_qp_get` spelling of {@link RiRet.CQ_INVALID_HANDLE}. */
export const RI_RET_CQ_HANDLE_INVALID = RiRet.CQ_INVALID_HANDLE;
/** Ch. 7 `ri_qp_modify` spelling of {@link RiRet.INVALID_LL_HANDLE}. */
export const RI_RET_INVALID_LLP_HANDLE = RiRet.INVALID_LL_HANDLE;
/** Ch. 8 spelling of {@link RiRet.INVALID_DDP_RDMAP_VERSION}. */
export const RI_RET_INVALID_DDP_RDMA_VERSION = RiRet.INVALID_DDP_RDMAP_VERSION;
/** Ch. 7 `ri_qp_modify` spelling of {@link RiRet.LL_BAD_STATE}. */
export const RI_RET_LLP_BAD_STATE = RiRet.LL_BAD_STATE;
/** `<rnicpi.h>` comment above `ri_qp_state_t` ("RI_RET_INVALID_STATE"): means {@link RiRet.QP_INVALID_STATE}. */
export const RI_RET_INVALID_STATE = RiRet.QP_INVALID_STATE;
/** Ch. 7 spelling without the `RET_` infix; means {@link RiRet.ADDRESS_HANDLE_INVALID}. */
export const RI_ADDRESS_HANDLE_INVALID = RiRet.ADDRESS_HANDLE_INVALID;
/** Ch. 7 spelling without the `RET_` infix; means {@link RiRet.MEM_INVALID_RTAG}. */
export const RI_MEM_INVALID_RTAG = RiRet.MEM_INVALID_RTAG;
/** Ch. 7 spelling without the `RET_` infix; means {@link RiRet.MEM_INVALID_LTAG}. */
export const RI_MEM_INVALID_LTAG = RiRet.MEM_INVALID_LTAG;

/**
 * Every alias spelling (full C name) → canonical code. Lookup table for tools that read spec text
 * or C sources; {@link riRetFromName} accepts these as well as canonical names.
 */
export const RI_RET_ALIASES: Readonly<Record<string, RiRet>> = Object.freeze({
  RI_RET_RNIC_ATOMICS_NOT_SUPPORTED,
  RI_RET_BASE_MEM_EXTN_UNSUPPORTED,
  RI_RET_NOT_IN_BLOCK_MODE,
  RI_RET_NOT_IN_PAGE_MODE,
  RI_RET_PD_INVALID,
  RI_RET_RNIC_INVALID_PARAMETER,
  RI_RET_CQ_HANDLE_INVALID,
  RI_RET_INVALID_LLP_HANDLE,
  RI_RET_INVALID_DDP_RDMA_VERSION,
  RI_RET_LLP_BAD_STATE,
  RI_RET_INVALID_STATE,
  RI_ADDRESS_HANDLE_INVALID,
  RI_MEM_INVALID_RTAG,
  RI_MEM_INVALID_LTAG,
});

/** True when `code` is one of the 86 defined `ri_api_return_t` values. */
export function isRiRet(code: unknown): code is RiRet {
  return typeof code === 'number' && Number.isInteger(code) && code >= 0 && code <= RI_RET_MAX;
}

/**
 * Canonical C name of a return code, e.g. `riRetName(41) === 'RI_RET_QP_INVALID_STATE'`.
 * Unknown values give `RI_RET_<n>?` rather than throwing (it is used in log and error messages).
 */
export function riRetName(code: RiRet | number): string {
  const member = isRiRet(code) ? RiRet[code] : undefined;
  return member === undefined ? `RI_RET_${String(code)}?` : `RI_RET_${member}`;
}

/**
 * Code for a C name: canonical (`RI_RET_LL_BAD_STATE`), alias (`RI_RET_LLP_BAD_STATE`) or bare
 * member (`LL_BAD_STATE`). Returns `undefined` for unknown names.
 */
export function riRetFromName(name: string): RiRet | undefined {
  const alias = RI_RET_ALIASES[name];
  if (alias !== undefined) return alias;
  const bare = name.startsWith('RI_RET_') ? name.slice('RI_RET_'.length) : name;
  const value = (RiRet as unknown as Record<string, unknown>)[bare];
  return typeof value === 'number' ? (value as RiRet) : undefined;
}

/**
 * Exception carrying an RNICPI code. For *internal* use (engine helpers, registry misuse, tests):
 * the `ri_*` operations themselves never throw for spec-defined failures, they return the code.
 */
export class RiError extends Error {
  readonly code: RiRet;
  /** OSV/IHV private error detail (`ri_err_data_t`), if any. */
  readonly errData: bigint | undefined;

  constructor(code: RiRet, message?: string, errData?: bigint) {
    super(message === undefined ? riRetName(code) : `${riRetName(code)}: ${message}`);
    this.name = 'RiError';
    this.code = code;
    this.errData = errData;
  }
}

// ---------------------------------------------------------------------------------------------
// Result objects: how `ri_*` calls return their status plus OUT parameters.
// ---------------------------------------------------------------------------------------------

/** `ri_err_data_t`: OSV/IHV private error detail, a `uint64_t` in the prototype. Meaning out of scope. */
export type ri_err_data_t = bigint;

/** Empty payload. */
export type RiNoOutputs = Record<never, never>;

/** Successful outcome: `status` is `SUCCESS` and the OUT parameters of the call are present. */
export type RiOk<T extends object = RiNoOutputs> = {
  readonly status: RiRet.SUCCESS;
  /** The call's `OUT ri_err_data_t *err_data`, when the provider has something to say. */
  readonly err_data?: ri_err_data_t;
} & Readonly<T>;

/**
 * Failed outcome with code `E`. Unless the call documents otherwise, no OUT parameter is present
 * (spec: "output structures are filled only on success").
 */
export type RiFail<E extends RiErrorCode = RiErrorCode, F extends object = RiNoOutputs> = {
  readonly status: E;
  readonly err_data?: ri_err_data_t;
} & Readonly<F>;

/**
 * Outcome of a synchronous `ri_*` call: the status, plus the call's OUT (and the OUT half of
 * IN OUT) parameters on success. Narrow with `if (r.status === RiRet.SUCCESS)`.
 *
 * `F` is carried by *every* failure (used by the post-list calls, whose `num_wrs` OUT is valid on
 * failure too).
 */
export type RiResult<T extends object = RiNoOutputs, F extends object = RiNoOutputs> = RiOk<T> | RiFail<RiErrorCode, F>;

/** Status-only outcome (calls without OUT parameters). */
export type RiStatus = RiResult;

/**
 * Outcome of a call that implements the "buffer too small" idiom (`ri_rnic_query`,
 * `ri_rnic_diag`): on `BUFFER_TOO_SMALL` the size field `K` reports the required size.
 */
export type RiSizedResult<T extends object, K extends string> =
  | RiOk<T>
  | RiFail<RiRet.BUFFER_TOO_SMALL, { [P in K]: number }>
  | RiFail<Exclude<RiErrorCode, RiRet.BUFFER_TOO_SMALL>>;

const statusCache: readonly RiFail[] = Object.freeze(
  Array.from({ length: RI_RET_COUNT }, (_, code) => Object.freeze({ status: code as RiErrorCode })),
);

/** Shared frozen `{ status: SUCCESS }`: return it from calls without outputs to avoid allocation. */
export const RI_OK: RiOk = Object.freeze({ status: RiRet.SUCCESS });

/** `{ status: code }` — a shared frozen object when there is no `err_data`. */
export function riFail<E extends RiErrorCode>(code: E, err_data?: ri_err_data_t): RiFail<E> {
  if (err_data === undefined && isRiRet(code)) return statusCache[code] as RiFail<E>;
  return err_data === undefined ? { status: code } : { status: code, err_data };
}

/** `{ status: SUCCESS, ...outputs }`. */
export function riOk<T extends object>(outputs: T): RiOk<T> {
  return { status: RiRet.SUCCESS, ...outputs } as RiOk<T>;
}

/** Status-only outcome for `code` (shared frozen objects, no `err_data`). */
export function riStatus(code: RiRet): RiStatus {
  return code === RiRet.SUCCESS ? RI_OK : riFail(code);
}

/** True when the outcome is a success (type guard usable in `filter` etc.). */
export function riIsOk<R extends { readonly status: RiRet }>(r: R): r is Extract<R, { readonly status: RiRet.SUCCESS }> {
  return r.status === RiRet.SUCCESS;
}

/**
 * Returns the success payload or throws {@link RiError}. Convenience for tests and for callers that
 * treat every failure as fatal; never used inside providers.
 */
export function riUnwrap<R extends { readonly status: RiRet; readonly err_data?: ri_err_data_t }>(
  r: R,
  what?: string,
): Extract<R, { readonly status: RiRet.SUCCESS }> {
  if (r.status !== RiRet.SUCCESS) throw new RiError(r.status, what, r.err_data);
  return r as Extract<R, { readonly status: RiRet.SUCCESS }>;
}
