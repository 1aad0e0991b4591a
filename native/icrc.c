/*
 * softrdma_net: the RoCEv2 Invariant CRC in C (IBTA Vol. 1 §7.8.1 "Invariant CRC"; RoCEv2:
 * Annex A17.4.3), computed by the datagram layer (native/udp.c) over each packet as it is handed
 * to sendmmsg, and over each datagram recvmmsg returns, so JavaScript makes no pass over the
 * octets for it. The rule is the one of src/wire/ib/icrc.ts (`computeIcrc`), which this must
 * match octet for octet (test/roce/native-udp.test.ts checks one against the other):
 *
 *   CRC-32 (IEEE 802.3: polynomial 0x04C11DB7 reflected, initial and final XOR all ones) over
 *   8 octets of ones (the LRH), the IP header with its variant fields set to ones (IPv4: TOS,
 *   TTL, header checksum; IPv6: traffic class, flow label, hop limit), the UDP header with the
 *   checksum set to ones, the BTH with octet 4 set to ones, and the rest of the packet without
 *   its 4 ICRC octets; stored little-endian after the pad.
 *
 * CRC-32 itself: on x86-64 with PCLMULQDQ, folding by carry-less multiplication (Intel, "Fast
 * CRC Computation for Generic Polynomials Using PCLMULQDQ Instruction", 2009: four 128-bit
 * lanes folded 64 octets at a time, then to 128 bits, 64, and a Barrett reduction to 32, with
 * the bit-reflected constants of the CRC-32 polynomial); elsewhere a slicing-by-8 table. Only the
 * folding function is compiled for PCLMULQDQ and SSE4.1 (a target attribute), and it is called
 * only after a runtime CPU check. (Node's own zlib `crc32_z` was measured at a quarter of this
 * speed: its SIMD path is not enabled in the binary's copy.)
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/uio.h>

#include "icrc.h"

static uint32_t table[8][256];
static int have_table;

static void build_table(void) {
  for (uint32_t i = 0; i < 256; i++) {
    uint32_t c = i;
    for (int k = 0; k < 8; k++) c = c & 1 ? (c >> 1) ^ 0xedb88320u : c >> 1;
    table[0][i] = c;
  }
  for (int k = 1; k < 8; k++)
    for (int i = 0; i < 256; i++) table[k][i] = (table[k - 1][i] >> 8) ^ table[0][table[k - 1][i] & 0xff];
  have_table = 1;
}

static uint32_t crc32_table(uint32_t crc, const uint8_t *p, size_t n) {
  uint32_t c = ~crc;
  while (n >= 8) {
    uint32_t lo, hi;
    memcpy(&lo, p, 4);
    memcpy(&hi, p + 4, 4);
    lo ^= c;
    c = table[7][lo & 0xff] ^ table[6][(lo >> 8) & 0xff] ^ table[5][(lo >> 16) & 0xff] ^ table[4][lo >> 24] ^ table[3][hi & 0xff] ^
        table[2][(hi >> 8) & 0xff] ^ table[1][(hi >> 16) & 0xff] ^ table[0][hi >> 24];
    p += 8;
    n -= 8;
  }
  while (n--) c = (c >> 8) ^ table[0][(c ^ *p++) & 0xff];
  return ~c;
}

static int have_fold;

#if defined(__x86_64__)
#include <immintrin.h>

/* The raw register crc (not inverted) run over p, n octets: n >= 64 and a multiple of 16. */
__attribute__((target("sse4.1,pclmul"))) static uint32_t fold_pclmul(const uint8_t *p, size_t n, uint32_t crc) {
  const __m128i k1k2 = _mm_set_epi64x(0x01c6e41596LL, 0x0154442bd4LL);
  const __m128i k3k4 = _mm_set_epi64x(0x00ccaa009eLL, 0x01751997d0LL);
  const __m128i k5k0 = _mm_set_epi64x(0, 0x0163cd6124LL);
  const __m128i poly = _mm_set_epi64x(0x01f7011641LL, 0x01db710641LL);
  __m128i x0, x1, x2, x3, x4, x5, x6, x7, x8;
  x1 = _mm_loadu_si128((const __m128i *)(p + 0x00));
  x2 = _mm_loadu_si128((const __m128i *)(p + 0x10));
  x3 = _mm_loadu_si128((const __m128i *)(p + 0x20));
  x4 = _mm_loadu_si128((const __m128i *)(p + 0x30));
  x1 = _mm_xor_si128(x1, _mm_cvtsi32_si128((int)crc));
  x0 = k1k2;
  p += 64;
  n -= 64;
  while (n >= 64) {
    x5 = _mm_clmulepi64_si128(x1, x0, 0x00);
    x6 = _mm_clmulepi64_si128(x2, x0, 0x00);
    x7 = _mm_clmulepi64_si128(x3, x0, 0x00);
    x8 = _mm_clmulepi64_si128(x4, x0, 0x00);
    x1 = _mm_clmulepi64_si128(x1, x0, 0x11);
    x2 = _mm_clmulepi64_si128(x2, x0, 0x11);
    x3 = _mm_clmulepi64_si128(x3, x0, 0x11);
    x4 = _mm_clmulepi64_si128(x4, x0, 0x11);
    x1 = _mm_xor_si128(_mm_xor_si128(x1, x5), _mm_loadu_si128((const __m128i *)(p + 0x00)));
    x2 = _mm_xor_si128(_mm_xor_si128(x2, x6), _mm_loadu_si128((const __m128i *)(p + 0x10)));
    x3 = _mm_xor_si128(_mm_xor_si128(x3, x7), _mm_loadu_si128((const __m128i *)(p + 0x20)));
    x4 = _mm_xor_si128(_mm_xor_si128(x4, x8), _mm_loadu_si128((const __m128i *)(p + 0x30)));
    p += 64;
    n -= 64;
  }
  /* Four lanes into one. */
  x0 = k3k4;
  x5 = _mm_clmulepi64_si128(x1, x0, 0x00);
  x1 = _mm_xor_si128(_mm_xor_si128(_mm_clmulepi64_si128(x1, x0, 0x11), x2), x5);
  x5 = _mm_clmulepi64_si128(x1, x0, 0x00);
  x1 = _mm_xor_si128(_mm_xor_si128(_mm_clmulepi64_si128(x1, x0, 0x11), x3), x5);
  x5 = _mm_clmulepi64_si128(x1, x0, 0x00);
  x1 = _mm_xor_si128(_mm_xor_si128(_mm_clmulepi64_si128(x1, x0, 0x11), x4), x5);
  while (n >= 16) {
    x2 = _mm_loadu_si128((const __m128i *)p);
    x5 = _mm_clmulepi64_si128(x1, x0, 0x00);
    x1 = _mm_xor_si128(_mm_xor_si128(_mm_clmulepi64_si128(x1, x0, 0x11), x2), x5);
    p += 16;
    n -= 16;
  }
  /* 128 bits to 64. */
  x2 = _mm_clmulepi64_si128(x1, x0, 0x10);
  x3 = _mm_setr_epi32(~0, 0, ~0, 0);
  x1 = _mm_xor_si128(_mm_srli_si128(x1, 8), x2);
  x0 = k5k0;
  x2 = _mm_srli_si128(x1, 4);
  x1 = _mm_and_si128(x1, x3);
  x1 = _mm_clmulepi64_si128(x1, x0, 0x00);
  x1 = _mm_xor_si128(x1, x2);
  /* Barrett reduction to 32 bits. */
  x0 = poly;
  x2 = _mm_and_si128(x1, x3);
  x2 = _mm_clmulepi64_si128(x2, x0, 0x10);
  x2 = _mm_and_si128(x2, x3);
  x2 = _mm_clmulepi64_si128(x2, x0, 0x00);
  x1 = _mm_xor_si128(x1, x2);
  return (uint32_t)_mm_extract_epi32(x1, 1);
}

static void detect_fold(void) {
  __builtin_cpu_init();
  have_fold = __builtin_cpu_supports("pclmul") && __builtin_cpu_supports("sse4.1");
}
#else
static uint32_t fold_pclmul(const uint8_t *p, size_t n, uint32_t crc) { return crc; }
static void detect_fold(void) {}
#endif

void icrc_init(void) {
#if __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "the table CRC assumes a little-endian host"
#endif
  build_table();
  detect_fold();
}

const char *icrc_impl(void) { return have_fold ? "pclmul" : "table"; }

uint32_t crc32_ieee(uint32_t crc, const uint8_t *p, size_t n) {
  if (n == 0) return crc;
  if (!have_table) build_table();
  if (have_fold && n >= 64) {
    size_t chunk = n & ~(size_t)15;
    crc = ~fold_pclmul(p, chunk, ~crc);
    p += chunk;
    n -= chunk;
    if (n == 0) return crc;
  }
  return crc32_table(crc, p, n);
}

uint32_t icrc_compute_iov(const icrc_ip_t *ip, uint32_t ipid, const struct iovec *iov, size_t niov, size_t len) {
  uint8_t h[8 + 40 + 8 + ICRC_BTH_LEN];
  size_t o = 0;
  if (len < ICRC_BTH_LEN + 4 || niov == 0 || iov[0].iov_len < ICRC_BTH_LEN) return 0;
  const uint8_t *pkt = iov[0].iov_base;
  uint32_t udp_len = 8 + (uint32_t)len;
  memset(h, 0xff, 8);
  o = 8;
  if (!ip->v6) {
    uint32_t total = 20 + udp_len;
    h[o] = 0x45;
    h[o + 1] = 0xff;
    h[o + 2] = (uint8_t)(total >> 8);
    h[o + 3] = (uint8_t)total;
    h[o + 4] = (uint8_t)(ipid >> 8);
    h[o + 5] = (uint8_t)ipid;
    h[o + 6] = (uint8_t)(ip->flags_frag >> 8);
    h[o + 7] = (uint8_t)ip->flags_frag;
    h[o + 8] = 0xff;
    h[o + 9] = 17;
    h[o + 10] = 0xff;
    h[o + 11] = 0xff;
    memcpy(h + o + 12, ip->src, 4);
    memcpy(h + o + 16, ip->dst, 4);
    o += 20;
  } else {
    h[o] = 0x6f;
    h[o + 1] = h[o + 2] = h[o + 3] = 0xff;
    h[o + 4] = (uint8_t)(udp_len >> 8);
    h[o + 5] = (uint8_t)udp_len;
    h[o + 6] = 17;
    h[o + 7] = 0xff;
    memcpy(h + o + 8, ip->src, 16);
    memcpy(h + o + 24, ip->dst, 16);
    o += 40;
  }
  h[o] = (uint8_t)(ip->src_port >> 8);
  h[o + 1] = (uint8_t)ip->src_port;
  h[o + 2] = (uint8_t)(ip->dst_port >> 8);
  h[o + 3] = (uint8_t)ip->dst_port;
  h[o + 4] = (uint8_t)(udp_len >> 8);
  h[o + 5] = (uint8_t)udp_len;
  h[o + 6] = h[o + 7] = 0xff;
  o += 8;
  memcpy(h + o, pkt, ICRC_BTH_LEN);
  h[o + 4] = 0xff; /* FECN, BECN, Resv6 */
  o += ICRC_BTH_LEN;
  uint32_t c = crc32_ieee(0, h, o);
  /* The rest of the packet, ICRC excluded, across its parts. */
  size_t left = len - ICRC_BTH_LEN - 4, skip = ICRC_BTH_LEN;
  for (size_t i = 0; i < niov && left > 0; i++) {
    size_t n = iov[i].iov_len - skip;
    if (n > left) n = left;
    c = crc32_ieee(c, (const uint8_t *)iov[i].iov_base + skip, n);
    left -= n;
    skip = 0;
  }
  return c;
}

uint32_t icrc_compute(const icrc_ip_t *ip, uint32_t ipid, const uint8_t *pkt, size_t len) {
  struct iovec v = {(void *)pkt, len};
  return icrc_compute_iov(ip, ipid, &v, 1, len);
}

void icrc_store(uint8_t *pkt, size_t len, uint32_t c) {
  uint8_t *e = pkt + len - 4;
  e[0] = (uint8_t)c;
  e[1] = (uint8_t)(c >> 8);
  e[2] = (uint8_t)(c >> 16);
  e[3] = (uint8_t)(c >> 24);
}
