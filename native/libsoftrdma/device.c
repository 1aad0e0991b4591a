/*
 * Device discovery and the device queries: the exported ibverbs calls a program makes before it
 * creates anything (ibv_get_device_list ... ibv_query_pkey), each one request to the daemon.
 * The devices are softrdma's (softrdma0, softroce0), never the kernel's.
 */
#define _GNU_SOURCE
#include <endian.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sr.h"

/* The struct libibverbs keeps for a device, and what the daemon said of it. */
struct sr_device {
	struct ibv_device dev;
	uint64_t guid;
	/* Its place in the daemon's list (ibv_get_device_index). */
	int index;
	struct sr_device *next;
};

/* Devices are kept for the life of the process (a context names its device). */
static struct sr_device *known;
static pthread_mutex_t known_lock = PTHREAD_MUTEX_INITIALIZER;

static struct sr_device *device_named(const char *name)
{
	struct sr_device *d;

	for (d = known; d; d = d->next)
		if (!strcmp(d->dev.name, name))
			return d;
	d = calloc(1, sizeof(*d));
	if (!d)
		return NULL;
	snprintf(d->dev.name, sizeof(d->dev.name), "%s", name);
	d->next = known;
	known = d;
	return d;
}

struct ibv_device **ibv_get_device_list(int *num_devices)
{
	struct sr_ans *a = sr_ans_tls();
	struct ibv_device **list;
	unsigned n, i;
	int e = sr_call(SR_GET_DEVICES, NULL, a, -1);

	if (e) {
		errno = e;
		return NULL;
	}
	n = (unsigned)sr_get_u64(a, "count", 0);
	if (n > 64)
		n = 64;
	list = calloc(n + 1, sizeof(*list));
	if (!list) {
		errno = ENOMEM;
		return NULL;
	}
	pthread_mutex_lock(&known_lock);
	for (i = 0; i < n; i++) {
		char k[32];
		const char *v;
		struct sr_device *d;

		snprintf(k, sizeof(k), "name.%u", i);
		v = sr_get(a, k);
		if (!v)
			break;
		{
			char name[IBV_SYSFS_NAME_MAX];
			size_t l = strcspn(v, "\n");

			snprintf(name, sizeof(name), "%.*s", (int)l, v);
			d = device_named(name);
		}
		if (!d)
			break;
		d->guid = sr_get_idx(a, "guid", i, NULL, 0);
		d->index = (int)i;
		d->dev.transport_type = (enum ibv_transport_type)sr_get_idx(a, "transport", i, NULL, 0);
		d->dev.node_type = (enum ibv_node_type)sr_get_idx(a, "node_type", i, NULL, 0);
		snprintf(d->dev.dev_name, sizeof(d->dev.dev_name), "uverbs%u", i);
		/* No sysfs directory: files read under it (board_id) are absent. */
		snprintf(d->dev.dev_path, sizeof(d->dev.dev_path), "/nonexistent/softrdma/%s", d->dev.name);
		snprintf(d->dev.ibdev_path, sizeof(d->dev.ibdev_path), "/nonexistent/softrdma/%s", d->dev.name);
		list[i] = &d->dev;
	}
	pthread_mutex_unlock(&known_lock);
	/*
	 * SOFTRDMA_DEVICE names the program's device: it is listed first, so that a program that
	 * takes the first device (perftest without -d, which also decides iWARP's credit mode from
	 * it) uses the device its rdma_cm ids are on.
	 */
	{
		const char *want = getenv("SOFTRDMA_DEVICE");

		for (unsigned j = 1; want && *want && j < i; j++) {
			if (strcmp(list[j]->name, want) == 0) {
				struct ibv_device *first = list[j];

				memmove(&list[1], &list[0], j * sizeof(*list));
				list[0] = first;
				break;
			}
		}
	}
	if (num_devices)
		*num_devices = (int)i;
	return list;
}

/* The device's index (librdmacm's device table asks it of every device). */
int ibv_get_device_index(struct ibv_device *device)
{
	return ((struct sr_device *)device)->index;
}

void ibv_free_device_list(struct ibv_device **list)
{
	free(list);
}

const char *ibv_get_device_name(struct ibv_device *device)
{
	return device->name;
}

__be64 ibv_get_device_guid(struct ibv_device *device)
{
	return htobe64(((struct sr_device *)device)->guid);
}

struct ibv_context *ibv_open_device(struct ibv_device *device)
{
	struct sr_req *r = sr_req_tls();
	struct sr_ans *a = sr_ans_tls();
	struct sr_context *c;
	int e;

	sr_put_str(r, "name", device->name);
	e = sr_call(SR_OPEN_DEVICE, r, a, -1);
	if (e) {
		errno = e;
		return NULL;
	}
	c = calloc(1, sizeof(*c));
	if (!c) {
		errno = ENOMEM;
		return NULL;
	}
	c->handle = (uint32_t)sr_get_u64(a, "ctx", 0);
	c->vctx.sz = sizeof(c->vctx);
	c->vctx.context.abi_compat = __VERBS_ABI_IS_EXTENDED;
	c->vctx.context.device = device;
	c->vctx.context.cmd_fd = -1;
	/* The daemon's socket pair for asynchronous events, when it could pass one. */
	c->vctx.context.async_fd = a->fd >= 0 ? a->fd : -1;
	c->vctx.context.num_comp_vectors = 1;
	pthread_mutex_init(&c->vctx.context.mutex, NULL);
	sr_context_ops(c);
	return &c->vctx.context;
}

int ibv_close_device(struct ibv_context *context)
{
	struct sr_req *r = sr_req_tls();
	struct sr_ans *a = sr_ans_tls();
	int e;

	sr_put_u64(r, "ctx", sr_ctx_handle(context));
	e = sr_call(SR_CLOSE_DEVICE, r, a, -1);
	if (e) {
		errno = e;
		return -1;
	}
	if (context->async_fd >= 0)
		close(context->async_fd);
	free((char *)context - offsetof(struct verbs_context, context));
	return 0;
}

#define DA(f) SR_FIELD(struct ibv_device_attr, f)
static const struct sr_field device_fields[] = {
	DA(max_mr_size), DA(page_size_cap), DA(vendor_id), DA(vendor_part_id), DA(hw_ver),
	DA(max_qp), DA(max_qp_wr), DA(device_cap_flags), DA(max_sge), DA(max_sge_rd), DA(max_cq),
	DA(max_cqe), DA(max_mr), DA(max_pd), DA(max_qp_rd_atom), DA(max_ee_rd_atom),
	DA(max_res_rd_atom), DA(max_qp_init_rd_atom), DA(max_ee_init_rd_atom), DA(atomic_cap),
	DA(max_ee), DA(max_rdd), DA(max_mw), DA(max_raw_ipv6_qp), DA(max_raw_ethy_qp),
	DA(max_mcast_grp), DA(max_mcast_qp_attach), DA(max_total_mcast_qp_attach), DA(max_ah),
	DA(max_fmr), DA(max_map_per_fmr), DA(max_srq), DA(max_srq_wr), DA(max_srq_sge),
	DA(max_pkeys), DA(local_ca_ack_delay), DA(phys_port_cnt),
};

int ibv_query_device(struct ibv_context *context, struct ibv_device_attr *attr)
{
	struct sr_req *r = sr_req_tls();
	struct sr_ans *a = sr_ans_tls();
	const char *fw;
	int e;

	sr_put_u64(r, "ctx", sr_ctx_handle(context));
	e = sr_call(SR_QUERY_DEVICE, r, a, -1);
	if (e)
		return e;
	memset(attr, 0, sizeof(*attr));
	sr_fill(attr, device_fields, sizeof(device_fields) / sizeof(device_fields[0]), a, sizeof(*attr), NULL);
	/* The GUIDs are in network byte order in the struct. */
	attr->node_guid = htobe64(sr_get_u64(a, "node_guid", 0));
	attr->sys_image_guid = htobe64(sr_get_u64(a, "sys_image_guid", 0));
	fw = sr_get(a, "fw_ver");
	if (fw)
		snprintf(attr->fw_ver, sizeof(attr->fw_ver), "%.*s", (int)strcspn(fw, "\n"), fw);
	return 0;
}

#define PA(f) SR_FIELD(struct ibv_port_attr, f)
static const struct sr_field port_fields[] = {
	PA(state), PA(max_mtu), PA(active_mtu), PA(gid_tbl_len), PA(port_cap_flags),
	PA(max_msg_sz), PA(bad_pkey_cntr), PA(qkey_viol_cntr), PA(pkey_tbl_len), PA(lid),
	PA(sm_lid), PA(lmc), PA(max_vl_num), PA(sm_sl), PA(subnet_timeout), PA(init_type_reply),
	PA(active_width), PA(active_speed), PA(phys_state), PA(link_layer), PA(flags),
	PA(port_cap_flags2),
};

static int query_port(struct ibv_context *context, uint8_t port_num, struct ibv_port_attr *attr, size_t len)
{
	struct sr_req *r = sr_req_tls();
	struct sr_ans *a = sr_ans_tls();
	int e;

	sr_put_u64(r, "ctx", sr_ctx_handle(context));
	sr_put_u64(r, "port", port_num);
	e = sr_call(SR_QUERY_PORT, r, a, -1);
	if (e)
		return e;
	memset(attr, 0, len);
	sr_fill(attr, port_fields, SR_COUNT(port_fields), a, len, NULL);
	return 0;
}

/* The context operation `query_port`: the caller says how much of the struct it has. */
int sr_query_port_op(struct ibv_context *context, uint8_t port_num, struct ibv_port_attr *attr, size_t len)
{
	return query_port(context, port_num, attr, len < sizeof(*attr) ? len : sizeof(*attr));
}

/*
 * The exported call, reached by programs built before the context operation existed: their
 * struct ends after `link_layer` (the original layout), so nothing past it is written.
 */
#undef ibv_query_port
int ibv_query_port(struct ibv_context *context, uint8_t port_num, struct _compat_ibv_port_attr *attr);
int ibv_query_port(struct ibv_context *context, uint8_t port_num, struct _compat_ibv_port_attr *attr)
{
	return query_port(context, port_num, (struct ibv_port_attr *)attr, offsetof(struct ibv_port_attr, flags));
}

static int gid_entry(struct ibv_context *context, uint32_t port_num, int index, union ibv_gid *gid, unsigned *type)
{
	struct sr_req *r = sr_req_tls();
	struct sr_ans *a = sr_ans_tls();
	int e;

	sr_put_u64(r, "ctx", sr_ctx_handle(context));
	sr_put_u64(r, "port", port_num);
	sr_put_i64(r, "index", index);
	e = sr_call(SR_QUERY_GID, r, a, -1);
	if (e)
		return e;
	if (sr_get_hex(a, "gid", gid->raw, 16))
		return EPROTO;
	if (type)
		*type = (unsigned)sr_get_u64(a, "gid_type", 0);
	return 0;
}

int ibv_query_gid(struct ibv_context *context, uint8_t port_num, int index, union ibv_gid *gid)
{
	int e = gid_entry(context, port_num, index, gid, NULL);

	if (e) {
		errno = e;
		return -1;
	}
	return 0;
}

/* libibverbs' private `enum ibv_gid_type_sysfs` (what sysfs says: IB/RoCE v1, RoCE v2). */
enum sr_gid_type_sysfs { SR_GID_TYPE_SYSFS_IB_ROCE_V1, SR_GID_TYPE_SYSFS_ROCE_V2 };

int ibv_query_gid_type(struct ibv_context *context, uint8_t port_num, unsigned int index, enum sr_gid_type_sysfs *type)
{
	unsigned t;
	union ibv_gid gid;
	int e = gid_entry(context, port_num, (int)index, &gid, &t);

	if (e) {
		errno = e;
		return -1;
	}
	*type = t == IBV_GID_TYPE_ROCE_V2 ? SR_GID_TYPE_SYSFS_ROCE_V2 : SR_GID_TYPE_SYSFS_IB_ROCE_V1;
	return 0;
}

int _ibv_query_gid_ex(struct ibv_context *context, uint32_t port_num, uint32_t gid_index,
		      struct ibv_gid_entry *entry, uint32_t flags, size_t entry_size)
{
	unsigned t;
	int e;

	if (flags || entry_size < sizeof(*entry))
		return EINVAL;
	memset(entry, 0, sizeof(*entry));
	e = gid_entry(context, port_num, (int)gid_index, &entry->gid, &t);
	if (e)
		return e;
	entry->gid_index = gid_index;
	entry->port_num = port_num;
	entry->gid_type = t;
	entry->ndev_ifindex = 0;
	return 0;
}

int ibv_query_pkey(struct ibv_context *context, uint8_t port_num, int index, __be16 *pkey)
{
	struct sr_req *r = sr_req_tls();
	struct sr_ans *a = sr_ans_tls();
	int e;

	sr_put_u64(r, "ctx", sr_ctx_handle(context));
	sr_put_u64(r, "port", port_num);
	sr_put_i64(r, "index", index);
	e = sr_call(SR_QUERY_PKEY, r, a, -1);
	if (e) {
		errno = e;
		return -1;
	}
	*pkey = htobe16((uint16_t)sr_get_u64(a, "pkey", 0));
	return 0;
}
