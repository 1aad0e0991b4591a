/*
 * Protection domains and memory regions. `ibv_reg_mr` makes ordinary process memory reachable
 * by the daemon (docs/preload.md): the pages covering the region are copied into a memfd, the
 * memfd is mapped over the same addresses (MAP_FIXED | MAP_SHARED), and the fd goes to the
 * daemon, which maps it too. A page already moved into a memfd by an earlier registration is
 * reused: a region inside one moved range is registered from that memfd.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "sr.h"

struct ibv_pd *ibv_alloc_pd(struct ibv_context *context)
{
	struct sr_req *r = sr_req_tls();
	struct sr_ans *a = sr_ans_tls();
	struct ibv_pd *pd;
	int e;

	sr_put_u64(r, "ctx", sr_ctx_handle(context));
	e = sr_call(SR_ALLOC_PD, r, a, -1);
	if (e) {
		errno = e;
		return NULL;
	}
	pd = calloc(1, sizeof(*pd));
	if (!pd) {
		errno = ENOMEM;
		return NULL;
	}
	pd->context = context;
	pd->handle = (uint32_t)sr_get_u64(a, "pd", 0);
	return pd;
}

int ibv_dealloc_pd(struct ibv_pd *pd)
{
	struct sr_req *r = sr_req_tls();
	struct sr_ans *a = sr_ans_tls();
	int e;

	sr_put_u64(r, "pd", pd->handle);
	e = sr_call(SR_DEALLOC_PD, r, a, -1);
	if (e)
		return e;
	free(pd);
	return 0;
}

/* A page range moved into a memfd. */
struct moved {
	uintptr_t start, end;
	int fd;
	unsigned users;
	struct moved *next;
};

static struct moved *moved_ranges;
static pthread_mutex_t moved_lock = PTHREAD_MUTEX_INITIALIZER;

/* The moved range holding [start, end), a new one, or NULL (errno set) when it straddles one. */
static struct moved *move_range(uintptr_t start, uintptr_t end)
{
	struct moved *m;
	void *tmp;
	int fd;

	for (m = moved_ranges; m; m = m->next) {
		if (start >= m->start && end <= m->end)
			return m;
		if (start < m->end && end > m->start) {
			fprintf(stderr, "libsoftrdma: ibv_reg_mr: the range overlaps part of an earlier registration's pages (EINVAL)\n");
			errno = EINVAL;
			return NULL;
		}
	}
	fd = memfd_create("softrdma-mr", MFD_CLOEXEC);
	if (fd < 0)
		return NULL;
	if (ftruncate(fd, (off_t)(end - start)) < 0)
		goto fail;
	tmp = mmap(NULL, end - start, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (tmp == MAP_FAILED)
		goto fail;
	memcpy(tmp, (void *)start, end - start);
	if (mmap((void *)start, end - start, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, fd, 0) == MAP_FAILED) {
		int e = errno;

		munmap(tmp, end - start);
		errno = e;
		goto fail;
	}
	munmap(tmp, end - start);
	m = calloc(1, sizeof(*m));
	if (!m) {
		/* The pages stay shared; only the bookkeeping is lost. */
		close(fd);
		errno = ENOMEM;
		return NULL;
	}
	m->start = start;
	m->end = end;
	m->fd = fd;
	m->next = moved_ranges;
	moved_ranges = m;
	return m;
fail:
	{
		int e = errno;

		close(fd);
		errno = e;
	}
	return NULL;
}

static struct ibv_mr *reg_mr(struct ibv_pd *pd, void *addr, size_t length, uint64_t iova, unsigned access)
{
	struct sr_req *r = sr_req_tls();
	struct sr_ans *a = sr_ans_tls();
	uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
	uintptr_t start = (uintptr_t)addr & ~(page - 1);
	uintptr_t end = ((uintptr_t)addr + length + page - 1) & ~(page - 1);
	struct moved *m;
	struct ibv_mr *mr;
	int e;

	if (!addr || !length) {
		errno = EINVAL;
		return NULL;
	}
	if (iova != (uint64_t)(uintptr_t)addr) {
		errno = sr_unsupported("ibv_reg_mr_iova with an iova other than the address");
		return NULL;
	}
	pthread_mutex_lock(&moved_lock);
	m = move_range(start, end);
	if (!m) {
		e = errno;
		pthread_mutex_unlock(&moved_lock);
		errno = e;
		return NULL;
	}
	m->users++;
	sr_put_u64(r, "pd", pd->handle);
	sr_put_u64(r, "addr", (uintptr_t)addr);
	sr_put_u64(r, "length", length);
	sr_put_u64(r, "access", access);
	sr_put_u64(r, "offset", (uintptr_t)addr - m->start);
	sr_put_u64(r, "map_length", m->end - m->start);
	e = sr_call(SR_REG_MR, r, a, m->fd);
	if (e) {
		m->users--;
		pthread_mutex_unlock(&moved_lock);
		errno = e;
		return NULL;
	}
	pthread_mutex_unlock(&moved_lock);
	mr = calloc(1, sizeof(*mr));
	if (!mr) {
		errno = ENOMEM;
		return NULL;
	}
	mr->context = pd->context;
	mr->pd = pd;
	mr->addr = addr;
	mr->length = length;
	mr->handle = (uint32_t)sr_get_u64(a, "mr", 0);
	mr->lkey = (uint32_t)sr_get_u64(a, "lkey", 0);
	mr->rkey = (uint32_t)sr_get_u64(a, "rkey", 0);
	return mr;
}

#undef ibv_reg_mr
#undef ibv_reg_mr_iova
struct ibv_mr *ibv_reg_mr(struct ibv_pd *pd, void *addr, size_t length, int access)
{
	return reg_mr(pd, addr, length, (uintptr_t)addr, (unsigned)access);
}

struct ibv_mr *ibv_reg_mr_iova(struct ibv_pd *pd, void *addr, size_t length, uint64_t iova, int access)
{
	return reg_mr(pd, addr, length, iova, (unsigned)access);
}

struct ibv_mr *ibv_reg_mr_iova2(struct ibv_pd *pd, void *addr, size_t length, uint64_t iova, unsigned int access)
{
	return reg_mr(pd, addr, length, iova, access);
}

/* The shared pages stay in place (they are the program's memory now); the daemon lets go. */
int ibv_dereg_mr(struct ibv_mr *mr)
{
	struct sr_req *r = sr_req_tls();
	struct sr_ans *a = sr_ans_tls();
	int e;

	sr_put_u64(r, "mr", mr->handle);
	e = sr_call(SR_DEREG_MR, r, a, -1);
	if (e)
		return e;
	free(mr);
	return 0;
}
