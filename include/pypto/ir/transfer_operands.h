// Operand layout of the put/get family, decoded in one place. The tensor forms
// take (dst, peer, src[, dst_offsets, src_offsets, shape]); the internal tile
// forms take (dst, peer, src, stage[, stage2][, dst_offsets, src_offsets, shape]),
// so where the region sits depends on whether a second stage is present. Decode
// by arity — never by the declared argument names, which only fit the longest form.
#pragma once

#include <cstddef>

namespace pypto::ir {

struct TransferOperands {
  bool valid = false;  // the arity is one of the op's forms
  int stage2 = -1;     // index of the pong staging tile, -1 when absent
  int region = -1;     // index of dst_offsets (src_offsets, shape follow), -1 when absent
};

inline TransferOperands DecodeTransferOperands(bool tile_form, size_t nargs) {
  TransferOperands t;
  if (!tile_form) {
    t.valid = nargs == 3 || nargs == 6;
    if (nargs == 6) t.region = 3;
    return t;
  }
  t.valid = nargs == 4 || nargs == 5 || nargs == 7 || nargs == 8;
  if (nargs == 5 || nargs == 8) t.stage2 = 4;
  if (nargs >= 7) t.region = nargs == 8 ? 5 : 4;
  return t;
}

}  // namespace pypto::ir
