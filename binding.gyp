{
  "targets": [
    {
      "target_name": "softrdma_net",
      "sources": ["native/udp.c", "native/crc32c.c", "native/icrc.c"],
      "cflags": ["-O2", "-Wall", "-Wextra", "-Wno-unused-parameter", "-std=gnu11"],
      "conditions": [["OS!='linux'", {"type": "none", "sources": []}]]
    }
  ]
}
