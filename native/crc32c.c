/*
 * softrdma_net: hardware CRC32C (Castagnoli) for the MPA FPDU CRC (RFC 5044 §4.4 / RFC 3385,
 * polynomial 0x1EDC6F41, reflected 0x82F63B78, initial and final XOR 0xFFFFFFFF).
 *
 *   - x86-64: the SSE4.2 `crc32` instruction, 8 bytes at a time, in three interleaved streams
 *     (the instruction has a latency of about three cycles and a throughput of one per cycle)
 *     whose partial CRCs are joined with "shift by n zero bytes" tables. Only the functions that
 *     use it are compiled for SSE4.2 (a target attribute), and they are called only after a
 *     runtime CPU check, so the addon still loads on any x86-64.
 *   - AArch64: the ARMv8 CRC32 extension (`crc32cx`), one stream, after an AT_HWCAP check.
 *   - elsewhere, or without the CPU feature: crc32cHw() is "" and JavaScript uses its fallback.
 *
 * The CRC register is linear over GF(2): running the raw register s over data D gives
 * shift(s, |D|) ^ run(0, D), where shift(s, n) is s run over n zero bytes. So three streams A, B,
 * C of L bytes each, started from s, 0 and 0, combine as shift(A, 2L) ^ shift(B, L) ^ C.
 *
 * Written against node_api.h (Node-API version 8); the buffer is read in place, never copied.
 */
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <node_api.h>

#include "crc32c.h"

#define CRC32C_POLY 0x82f63b78u

/* Bytes per stream in one three-stream round. */
#define STREAM_LEN 2048

/* shift_{2L,L}[k][b]: the register (b << 8k) run over 2L resp. L zero bytes. */
static uint32_t shift_2l[4][256], shift_l[4][256];

static uint32_t shift_apply(const uint32_t t[4][256], uint32_t crc) {
  return t[0][crc & 0xff] ^ t[1][(crc >> 8) & 0xff] ^ t[2][(crc >> 16) & 0xff] ^ t[3][crc >> 24];
}

/* Bitwise, in plain C: the register `v` run over `n` zero bytes. */
static uint32_t zeros_slow(uint32_t v, size_t n) {
  for (size_t i = 0; i < 8 * n; i++) v = (v >> 1) ^ (CRC32C_POLY & (0u - (v & 1)));
  return v;
}

static void build_shift_table(uint32_t t[4][256], size_t n) {
  uint32_t basis[32];
  for (int i = 0; i < 32; i++) basis[i] = zeros_slow(1u << i, n);
  for (int k = 0; k < 4; k++)
    for (int b = 0; b < 256; b++) {
      uint32_t r = 0;
      for (int j = 0; j < 8; j++)
        if (b & (1 << j)) r ^= basis[8 * k + j];
      t[k][b] = r;
    }
}

static const char *hw_name = "";
static uint32_t (*hw_run)(uint32_t crc, const uint8_t *p, size_t n);

#if defined(__x86_64__)
#include <nmmintrin.h>

__attribute__((target("sse4.2"))) static uint32_t run_sse42(uint32_t crc, const uint8_t *p, size_t n) {
  uint64_t c0 = crc;
  /* Align to 8 bytes so that every 8-byte load of the main loop is aligned. */
  while (n > 0 && ((uintptr_t)p & 7)) {
    c0 = _mm_crc32_u8((uint32_t)c0, *p++);
    n--;
  }
  while (n >= 3 * STREAM_LEN) {
    uint64_t c1 = 0, c2 = 0;
    const uint8_t *a = p, *b = p + STREAM_LEN, *c = p + 2 * STREAM_LEN;
    for (size_t i = 0; i < STREAM_LEN; i += 8) {
      uint64_t wa, wb, wc;
      memcpy(&wa, a + i, 8);
      memcpy(&wb, b + i, 8);
      memcpy(&wc, c + i, 8);
      c0 = _mm_crc32_u64(c0, wa);
      c1 = _mm_crc32_u64(c1, wb);
      c2 = _mm_crc32_u64(c2, wc);
    }
    c0 = shift_apply(shift_2l, (uint32_t)c0) ^ shift_apply(shift_l, (uint32_t)c1) ^ (uint32_t)c2;
    p += 3 * STREAM_LEN;
    n -= 3 * STREAM_LEN;
  }
  while (n >= 8) {
    uint64_t w;
    memcpy(&w, p, 8);
    c0 = _mm_crc32_u64(c0, w);
    p += 8;
    n -= 8;
  }
  while (n > 0) {
    c0 = _mm_crc32_u8((uint32_t)c0, *p++);
    n--;
  }
  return (uint32_t)c0;
}

static void detect(void) {
  __builtin_cpu_init();
  if (__builtin_cpu_supports("sse4.2")) {
    hw_run = run_sse42;
    hw_name = "sse4.2";
  }
}

#elif defined(__aarch64__) && defined(__linux__)
#include <arm_acle.h>
#include <sys/auxv.h>
#ifndef HWCAP_CRC32
#define HWCAP_CRC32 (1 << 7)
#endif
#if defined(__clang__)
#define CRC_TARGET __attribute__((target("crc")))
#else
#define CRC_TARGET __attribute__((target("+crc")))
#endif

CRC_TARGET static uint32_t run_armv8(uint32_t crc, const uint8_t *p, size_t n) {
  while (n > 0 && ((uintptr_t)p & 7)) {
    crc = __crc32cb(crc, *p++);
    n--;
  }
  while (n >= 8) {
    uint64_t w;
    memcpy(&w, p, 8);
    crc = __crc32cd(crc, w);
    p += 8;
    n -= 8;
  }
  while (n > 0) {
    crc = __crc32cb(crc, *p++);
    n--;
  }
  return crc;
}

static void detect(void) {
  if (getauxval(AT_HWCAP) & HWCAP_CRC32) {
    hw_run = run_armv8;
    hw_name = "armv8-crc32";
  }
}

#else
static void detect(void) {}
#endif

/* crc32c(buf: Uint8Array, initial: number) -> number: the CRC32C of buf continuing from initial
 * (the CRC of the data before it; 0 for none). Only called when crc32cHw() is not "". */
static napi_value Crc32c(napi_env env, napi_callback_info info) {
  size_t argc = 2;
  napi_value argv[2], res;
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  napi_typedarray_type type;
  size_t len = 0, off = 0;
  void *data = NULL;
  napi_value ab;
  uint32_t initial = 0;
  if (argc < 1 || napi_get_typedarray_info(env, argv[0], &type, &len, &data, &ab, &off) != napi_ok || type != napi_uint8_array) {
    napi_throw_type_error(env, NULL, "crc32c: expected a Uint8Array");
    return NULL;
  }
  if (argc >= 2) napi_get_value_uint32(env, argv[1], &initial);
  if (!hw_run) {
    napi_throw_error(env, NULL, "crc32c: no hardware CRC32C on this CPU");
    return NULL;
  }
  uint32_t crc = len ? ~hw_run(~initial, (const uint8_t *)data, len) : initial;
  napi_create_uint32(env, crc, &res);
  return res;
}

/* crc32cHw() -> string: the CPU feature crc32c() uses, or "" when there is none. */
static napi_value Crc32cHw(napi_env env, napi_callback_info info) {
  napi_value res;
  napi_create_string_utf8(env, hw_name, NAPI_AUTO_LENGTH, &res);
  return res;
}

static void setup(void) {
  detect();
  if (hw_run) {
    build_shift_table(shift_2l, 2 * STREAM_LEN);
    build_shift_table(shift_l, STREAM_LEN);
  }
}

/* Adds crc32c and crc32cHw to the addon's exports (once per loading thread; the CPU check and
 * tables are set up once per process). */
void crc32c_register(napi_env env, napi_value exports) {
  static pthread_once_t once = PTHREAD_ONCE_INIT;
  pthread_once(&once, setup);
  napi_value fn;
  napi_create_function(env, "crc32c", NAPI_AUTO_LENGTH, Crc32c, NULL, &fn);
  napi_set_named_property(env, exports, "crc32c", fn);
  napi_create_function(env, "crc32cHw", NAPI_AUTO_LENGTH, Crc32cHw, NULL, &fn);
  napi_set_named_property(env, exports, "crc32cHw", fn);
}
