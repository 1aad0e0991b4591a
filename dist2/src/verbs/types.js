/**
 * libibverbs / librdmacm data structures for the ibverbs + rdma_cm face of softrdma, as the
 * "RDMA Aware Networks Programming User Manual" uses them (chapters 4-6, 8). Where the manual's
 * listing is missing or garbled (`ibv_qp_attr`, `ibv_wc`, `ibv_port_attr`, `ibv_sge`, ...) the
 * fields are those of rdma-core `libibverbs/verbs.h` / `librdmacm/rdma_cma.h` (commit 691953d8).
 *
 * C → TypeScript mapping (also in `docs/spec-notes.md`, section "ibverbs / rdma_cm"):
 * - Field names are the C names (snake_case). Struct = interface; C union = an object holding
 *   every member (only the member selected by the opcode/type/port space is meaningful; the
 *   others read as zero/null on output and are ignored on input).
 * - `uint64_t`/`__be64` → `bigint`; every other integer → `number`. Values that C keeps in network
 *   byte order (`imm_data`, GUIDs, `ibv_grh.version_tclass_flow`, GID halves, `rdma_get_src_port`)
 *   hold their natural numeric value here: the binding does the byte swapping, callers never
 *   `htonl()`. Example: a GUID whose wire bytes are `00 02 c9 03 ...` is `0x0002c903...n`.
 * - `void *` user contexts (`qp_context`, `cq_context`, `rdma_cm_id.context`) → `unknown`;
 *   `wr_id` and the `context` of the rdma_verbs helpers → `bigint` (C's `uintptr_t` round trip).
 * - Buffers: registration takes a `Uint8Array` (the memory itself); softrdma gives it a synthetic
 *   64-bit virtual address (`ibv_mr.addr`, `bigint`). SGEs, remote addresses and `ibv_mr.addr`
 *   are such addresses (`mr.addr + BigInt(offset)`), so they can be exchanged with peers exactly
 *   like C pointers. Pure data blobs (private data, GIDs, routes) are `Uint8Array`.
 * - Object pointers → opaque handle interfaces (below) carrying the public C fields read-only and a
 *   `[VERBS_HANDLE]` tag so that handles of different kinds are not interchangeable.
 * - Strings (`char[]`, `char *`) → `string`.
 * - Linked lists through `next`: kept as in C (`next: T | null`) in the structs; the post calls
 *   accept **either** a single WR whose `next` chain is followed **or** an array (then each
 *   element's `next` is ignored and the array order is the list order). Output lists
 *   (`rdma_addrinfo.ai_next`) are `next`-linked as in C; device lists are arrays.
 * - Input structs are passed as {@link In}`<T>`: every field optional, a missing field reads as 0 /
 *   null / empty, exactly like a C struct after `memset(0)`. Output structs are caller-supplied
 *   objects that the call fills completely on success (pass `{} as T` or reuse an object).
 *
 * @module
 */
// ---------------------------------------------------------------------------------------------
// Handles and helper types
// ---------------------------------------------------------------------------------------------
/** Tag carried by every handle object; its value is the C struct name (`'ibv_pd'`, `'rdma_cm_id'`). */
export const VERBS_HANDLE = Symbol.for('softrdma.verbs.handle');
//# sourceMappingURL=types.js.map