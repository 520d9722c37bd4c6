// Shared helpers of the op semantics (see include/pypto/sim/semantics_util.h).
#include "pypto/sim/semantics_util.h"

namespace pypto::sim {

std::vector<int64_t> PackedStrides(const std::vector<int64_t>& shape) {
  std::vector<int64_t> s(shape.size(), 1);
  for (size_t k = shape.size(); k-- > 1;) s[k - 1] = s[k] * shape[k];
  return s;
}

std::shared_ptr<TensorVal> NewHostTensor(DataType dt, const std::vector<int64_t>& shape,
                                         const std::string& name) {
  auto t = std::make_shared<TensorVal>();
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  t->host = std::make_shared<HostStorage>(static_cast<size_t>(n) * DTypeBytes(dt));
  t->dtype = dt;
  t->shape = shape;
  t->strides = PackedStrides(shape);
  t->valid = shape;
  t->name = name;
  return t;
}

std::shared_ptr<TileVal> NewTile(DataType dt, const std::vector<int64_t>& shape) {
  auto t = std::make_shared<TileVal>();
  t->dtype = dt;
  t->shape = shape;
  t->valid = shape;
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  t->bytes.assign(static_cast<size_t>(n) * DTypeBytes(dt), 0);  // 0 in every dtype
  return t;
}

}  // namespace pypto::sim
