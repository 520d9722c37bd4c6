// Helpers for the executor tests: parse IR text, run it in-process, and build /
// read host arrays (FP32, FP16, INT32) for exact comparisons.
#pragma once

#include <catch2/catch.hpp>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "pypto/ir/context.h"
#include "pypto/ir/parser.h"
#include "pypto/sim/run.h"
#include "pypto/sim/value.h"

namespace simtest {

using pypto::DataType;
using pypto::sim::HostArray;

inline HostArray Make(DataType dt, std::vector<int64_t> shape, const std::vector<double>& v) {
  HostArray a;
  a.dtype = dt;
  a.shape = std::move(shape);
  int eb = pypto::DTypeBytes(dt);
  a.bytes.assign(static_cast<size_t>(a.NumElements()) * eb, 0);
  for (size_t i = 0; i < v.size() && static_cast<int64_t>(i) < a.NumElements(); ++i)
    pypto::sim::StoreElem(a.bytes.data() + i * eb, dt, v[i]);
  return a;
}

inline std::vector<double> Values(const HostArray& a) {
  std::vector<double> out(static_cast<size_t>(a.NumElements()));
  int eb = pypto::DTypeBytes(a.dtype);
  for (size_t i = 0; i < out.size(); ++i)
    out[i] = pypto::sim::LoadElem(a.bytes.data() + i * eb, a.dtype);
  return out;
}

struct Run {
  pypto::ir::Context ctx;
  const pypto::ir::Program* prog = nullptr;
  std::string parse_errors;
  pypto::sim::RunResult result;
};

inline void Execute(Run& r, const std::string& text, const std::map<std::string, HostArray>& in,
                    const pypto::sim::RunOptions& o) {
  pypto::DiagnosticEngine diag(&r.ctx.sources());
  r.prog = pypto::ir::ParseProgram(r.ctx, text, "test.pir", diag);
  r.parse_errors = diag.Render();
  INFO(r.parse_errors);
  REQUIRE(r.prog != nullptr);
  r.result = pypto::sim::RunProgram(r.ctx, *r.prog, in, o);
}

inline pypto::sim::RunOptions Opts(int ranks) {
  pypto::sim::RunOptions o;
  o.ranks = ranks;
  o.deadline_s = 20;
  return o;
}

inline pypto::sim::RunOptions RandomOpts(int ranks, uint64_t seed) {
  pypto::sim::RunOptions o = Opts(ranks);
  o.schedule = pypto::sim::Schedule::kRandom;
  o.seed = seed;
  return o;
}

}  // namespace simtest
