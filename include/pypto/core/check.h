// PYPTO_CHECK: internal invariants (compiler bugs), never user diagnostics.
// A failed check throws InternalError with file:line so tests and tools can
// report it instead of aborting; user errors go through DiagnosticEngine.
#pragma once

#include <sstream>
#include <stdexcept>
#include <string>

namespace pypto {

class InternalError : public std::logic_error {
 public:
  using std::logic_error::logic_error;
};

[[noreturn]] inline void CheckFailed(const char* cond, const char* file, int line,
                                     const std::string& msg) {
  std::ostringstream os;
  os << "internal error: " << file << ":" << line << ": check failed: " << cond;
  if (!msg.empty()) os << ": " << msg;
  throw InternalError(os.str());
}

}  // namespace pypto

#define PYPTO_CHECK(cond, ...)                                                              \
  do {                                                                                      \
    if (!(cond)) ::pypto::CheckFailed(#cond, __FILE__, __LINE__, std::string(__VA_ARGS__)); \
  } while (0)
