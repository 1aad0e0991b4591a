/**
 * Protection Domains (RDMA Protocol Verbs §5.1, RNICPI §5.2 `ri_pd_alloc`/`ri_pd_dealloc`).
 *
 * A PD is the protection glue: every QP, S-RQ, MR and MW belongs to exactly one, and
 * deallocation is refused while anything still uses it ("Protection Domain is in use",
 * `RI_RET_PD_INUSE`). `users` counts those objects.
 */
export class Pd {
    id;
    osData;
    /** QPs, S-RQs, MRs (shared or not) and MWs (bound or invalidated) in this PD. */
    users = 0;
    destroyed = false;
    constructor(id, osData) {
        this.id = id;
        this.osData = osData;
    }
}
//# sourceMappingURL=pd.js.map