/**
 * Protection Domains (RDMA Protocol Verbs §5.1, RNICPI §5.2 `ri_pd_alloc`/`ri_pd_dealloc`).
 *
 * A PD is the protection glue: every QP, S-RQ, MR and MW belongs to exactly one, and
 * deallocation is refused while anything still uses it ("Protection Domain is in use",
 * `RI_RET_PD_INUSE`). `users` counts those objects.
 */
export declare class Pd {
    readonly id: number;
    readonly osData: unknown;
    /** QPs, S-RQs, MRs (shared or not) and MWs (bound or invalidated) in this PD. */
    users: number;
    destroyed: boolean;
    constructor(id: number, osData: unknown);
}
