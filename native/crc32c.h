/* softrdma_net: hardware CRC32C (native/crc32c.c). */
#ifndef SOFTRDMA_CRC32C_H
#define SOFTRDMA_CRC32C_H
#include <node_api.h>

/* Adds crc32c(buf, initial) and crc32cHw() to the addon's exports. */
void crc32c_register(napi_env env, napi_value exports);

#endif
