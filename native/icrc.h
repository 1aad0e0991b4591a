/* softrdma_net: the RoCEv2 ICRC (native/icrc.c). */
#ifndef SOFTRDMA_ICRC_H
#define SOFTRDMA_ICRC_H
#include <stddef.h>
#include <stdint.h>
#include <sys/uio.h>

#define ICRC_BTH_LEN 12

/* The IP and UDP fields the ICRC covers (the rest is masked). */
typedef struct {
  int v6;
  const uint8_t *src; /* 4 or 16 octets */
  const uint8_t *dst;
  uint32_t src_port, dst_port;
  uint32_t flags_frag; /* IPv4 flags and fragment offset (0x4000: DF) */
} icrc_ip_t;

/* Sets up the CRC-32 (once per process). */
void icrc_init(void);
/* "zlib" (Node's crc32_z) or "table". */
const char *icrc_impl(void);
/* CRC-32/IEEE of p continuing from crc (a previous result; 0 for none). */
uint32_t crc32_ieee(uint32_t crc, const uint8_t *p, size_t n);
/* The ICRC of the packet pkt (BTH ... ICRC, len octets) sent with ip and IPv4 ID ipid; 0 when shorter than BTH + ICRC. */
uint32_t icrc_compute(const icrc_ip_t *ip, uint32_t ipid, const uint8_t *pkt, size_t len);
/* The same over a packet in parts (niov iovecs, len octets in all; the BTH within the first). */
uint32_t icrc_compute_iov(const icrc_ip_t *ip, uint32_t ipid, const struct iovec *iov, size_t niov, size_t len);
/* Writes c into the last 4 octets of pkt, little-endian. */
void icrc_store(uint8_t *pkt, size_t len, uint32_t c);

#endif
