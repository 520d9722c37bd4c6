// RaceDetector unit tests for the run-based shadow state: element-wise accesses
// (as the copy paths make them) are gathered into one range and checked as one;
// a race inside a run, at a run boundary and in a partial overlap is reported
// at its lowest byte; a gathered range never spans a change of the thread's
// clock (else a later, ordered access would be checked with a stale clock).
#include <catch2/catch.hpp>

#include "pypto/sim/detectors.h"

using pypto::Span;
using pypto::sim::ClockJoin;
using pypto::sim::LogicalThread;
using pypto::sim::RaceDetector;

namespace {

LogicalThread Thread(int tid, const char* name) {
  LogicalThread t;
  t.tid = tid;
  t.name = name;
  t.device = tid;
  return t;
}

void Name(RaceDetector& d) {
  d.SetWindowNamer([](int) { return std::string("w"); });
  d.SetSpanFormatter([](Span s) { return "f.pir:" + std::to_string(s.line); });
}

// Element-wise, 4-byte elements [from, to) of window 0 on device 0.
void Elems(RaceDetector& d, LogicalThread& t, int64_t from, int64_t to, bool write, int line) {
  Span sp;
  sp.line = line;
  for (int64_t b = from; b < to; b += 4)
    d.Access(t, 0, 0, b, 4, write, false, write ? "pl.tile.store" : "pld.tile.remote_load", sp);
}

}  // namespace

TEST_CASE(
    "race shadow: an unordered read inside an element-wise write is reported at its first byte") {
  RaceDetector d(true);
  Name(d);
  LogicalThread a = Thread(0, "rank0"), b = Thread(1, "rank1");
  Elems(d, a, 0, 64, true, 10);
  Elems(d, b, 32, 48, false, 20);
  REQUIRE(d.reports().size() == 1);
  CHECK(d.reports()[0] ==
        "error: data race on window 'w' of rank 0 at byte 32:\n"
        "  write by rank 0 (thread rank0) pl.tile.store at f.pir:10\n"
        "  read by rank 1 (thread rank1) pld.tile.remote_load at f.pir:20\n"
        "  the accesses are not ordered by happens-before (no notify->wait, collective or "
        "dispatch edge between them)");
}

TEST_CASE("race shadow: a release/acquire edge orders the same accesses") {
  RaceDetector d(true);
  Name(d);
  LogicalThread a = Thread(0, "rank0"), b = Thread(1, "rank1");
  Elems(d, a, 0, 64, true, 10);
  d.Release(a, 1, 0, 0);
  d.Acquire(b, 1, 0, 0);
  Elems(d, b, 32, 48, false, 20);
  Elems(d, b, 0, 64, true, 21);  // b's write after its own read: no race either
  CHECK(d.reports().empty());
}

TEST_CASE("race shadow: a partial overlap of two writes is reported where it begins") {
  RaceDetector d(true);
  Name(d);
  LogicalThread a = Thread(0, "rank0"), b = Thread(1, "rank1");
  Elems(d, a, 0, 16, true, 10);
  Elems(d, b, 8, 24, true, 20);
  REQUIRE(d.reports().size() == 1);
  CHECK(d.reports()[0].rfind("error: data race on window 'w' of rank 0 at byte 8:\n  write by "
                             "rank 0 (thread rank0) pl.tile.store at f.pir:10\n  write by rank 1",
                             0) == 0);
}

TEST_CASE("race shadow: a read after split runs is checked against each run's own writer") {
  RaceDetector d(true);
  Name(d);
  LogicalThread a = Thread(0, "rank0"), b = Thread(1, "rank1"), c = Thread(2, "rank2");
  Elems(d, a, 0, 16, true, 10);
  d.Release(a, 1, 0, 0);
  d.Acquire(c, 1, 0, 0);  // c is ordered after a's write, not after b's
  Elems(d, b, 16, 32, true, 20);
  Elems(d, c, 0, 32, false, 30);
  REQUIRE(d.reports().size() == 1);
  CHECK(d.reports()[0].rfind("error: data race on window 'w' of rank 0 at byte 16:\n  write by "
                             "rank 1 (thread rank1) pl.tile.store at f.pir:20\n  read by rank 2",
                             0) == 0);
}

TEST_CASE("race shadow: gathering stops where the thread's clock changes") {
  RaceDetector d(true);
  Name(d);
  LogicalThread a = Thread(0, "rank0"), b = Thread(1, "rank1");
  Elems(d, b, 4, 8, true, 20);
  Elems(d, a, 0, 4, false, 10);
  // An edge made directly on the clocks (as dispatch and join do), then the
  // next element of the same read: ordered after b's write, so no race.
  ClockJoin(a.clock, b.clock);
  Elems(d, a, 4, 8, false, 10);
  CHECK(d.reports().empty());
  // The same without the edge is a race (the test can fail).
  RaceDetector d2(true);
  Name(d2);
  LogicalThread a2 = Thread(0, "rank0"), b2 = Thread(1, "rank1");
  Elems(d2, b2, 4, 8, true, 20);
  Elems(d2, a2, 0, 8, false, 10);
  REQUIRE(d2.reports().size() == 1);
  CHECK(d2.reports()[0].find("at byte 4:") != std::string::npos);
}
