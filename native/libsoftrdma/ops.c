/* The context's operation vectors (ibv_context_ops, verbs_context) of a softrdma context. */
#define _GNU_SOURCE
#include "sr.h"

int sr_query_port_op(struct ibv_context *context, uint8_t port_num, struct ibv_port_attr *attr, size_t len);

void sr_cq_ops(struct ibv_context_ops *ops);
void sr_qp_ops(struct ibv_context_ops *ops);
void sr_srq_ops(struct ibv_context_ops *ops);

void sr_context_ops(struct sr_context *c)
{
	c->vctx.query_port = sr_query_port_op;
	sr_cq_ops(&c->vctx.context.ops);
	sr_qp_ops(&c->vctx.context.ops);
	sr_srq_ops(&c->vctx.context.ops);
}
