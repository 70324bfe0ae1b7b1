build-clang/tests/test_abi_layout: tests/unit/test_abi_layout.c \
  include/sonde/abi.h

include/sonde/abi.h:
