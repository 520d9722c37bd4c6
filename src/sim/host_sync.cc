// HostSync: snapshot, diff and rank-ordered merge of host tensors across the
// processes of a multi-process run (include/pypto/sim/host_sync.h).
#include "pypto/sim/host_sync.h"

#include <algorithm>
#include <cstring>

#include "pypto/core/check.h"

namespace pypto::sim {

namespace {

// Record of one changed byte range: buffer index, offset, length, then the bytes.
struct RangeHeader {
  uint64_t buf, off, len;
};

// Changed bytes closer than this are sent as one range.
constexpr size_t kMergeGap = 32;

}  // namespace

void HostSync::Add(const Value& v) {
  if (v.kind == Value::Kind::kTuple) {
    for (const Value& e : *v.tuple) Add(e);
    return;
  }
  if (v.kind != Value::Kind::kTensor || v.tensor->IsWindow() || !v.tensor->host) return;
  for (const auto& b : bufs_)
    if (b == v.tensor->host) return;
  bufs_.push_back(v.tensor->host);
}

HostSync::HostSync(const std::vector<std::vector<Task>>& queues) {
  for (const auto& q : queues)
    for (const Task& t : q)
      for (size_t i = 0; i < t.args.size(); ++i) {
        bool in_only =
            t.fn && i < t.fn->param_dirs.size() && t.fn->param_dirs[i] == ir::ParamDirection::kIn;
        if (!in_only) Add(t.args[i]);
      }
  for (const auto& b : bufs_) before_.emplace_back(b->data, b->data + b->size);
}

void HostSync::Exchange(Transport& tp) {
  std::vector<uint8_t> mine;
  for (size_t k = 0; k < bufs_.size(); ++k) {
    const uint8_t* now = bufs_[k]->data;
    const uint8_t* was = before_[k].data();
    size_t n = before_[k].size();
    for (size_t i = 0; i < n;) {
      if (now[i] == was[i]) {
        ++i;
        continue;
      }
      size_t end = i + 1, last = i;
      while (end < n && end - last <= kMergeGap) {
        if (now[end] != was[end]) last = end;
        ++end;
      }
      RangeHeader h{k, i, last + 1 - i};
      const uint8_t* hp = reinterpret_cast<const uint8_t*>(&h);
      mine.insert(mine.end(), hp, hp + sizeof(h));
      mine.insert(mine.end(), now + i, now + last + 1);
      i = last + 1;
    }
  }
  std::vector<uint8_t> all;
  std::vector<size_t> sizes;
  tp.AllGather(mine, &all, &sizes);
  size_t at = 0;
  for (size_t r = 0; r < sizes.size(); ++r) {  // rank order: the highest rank's write wins
    size_t end = at + sizes[r];
    while (at < end) {
      RangeHeader h;
      std::memcpy(&h, all.data() + at, sizeof(h));
      at += sizeof(h);
      PYPTO_CHECK(h.buf < bufs_.size() && h.off + h.len <= bufs_[h.buf]->size && at + h.len <= end,
                  "host merge: a malformed range from rank " + std::to_string(r));
      std::memcpy(bufs_[h.buf]->data + h.off, all.data() + at, h.len);
      at += h.len;
    }
  }
}

}  // namespace pypto::sim
