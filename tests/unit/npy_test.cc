// The .npy reader as a hostile file sees it: header fields validated one by
// one, element counts and byte sizes overflow-checked, the data length exact.
#include "pypto/core/npy.h"

#include <catch2/catch.hpp>
#include <string>

namespace {

// A version 1.0 file: magic, header padded to 128 bytes, then `data` bytes.
std::string File(const std::string& dict, size_t data, int major = 1, int minor = 0) {
  std::string h = dict;
  h.append(128 - 10 - h.size() - 1, ' ');
  h.push_back('\n');
  std::string f = "\x93NUMPY";
  f.push_back(static_cast<char>(major));
  f.push_back(static_cast<char>(minor));
  f.push_back(static_cast<char>(h.size() & 0xff));
  f.push_back(static_cast<char>(h.size() >> 8));
  return f + h + std::string(data, '\0');
}

std::string Error(const std::string& file) {
  pypto::NpyArray a;
  std::string err;
  if (pypto::ParseNpy(file, &a, &err)) return "<accepted>";
  return err;
}

}  // namespace

TEST_CASE("npy: a 128-byte file claiming [2^40, 2^40] is rejected, not wrapped") {
  std::string f = File(
      "{'descr': '<f4', 'fortran_order': False, 'shape': (1099511627776, 1099511627776), }", 0);
  CHECK(f.size() == 128);
  CHECK(Error(f) ==
        ".npy shape (1099511627776, 1099511627776) has more elements than fit in 64 "
        "bits");
  CHECK(Error(File("{'descr': '<i8', 'fortran_order': False, 'shape': (2305843009213693952,), }",
                   0)) == ".npy shape (2305843009213693952,) of '<i8' needs more than 2^63 bytes");
  CHECK(Error(File("{'descr': '<f4', 'fortran_order': False, 'shape': (9223372036854775808,), }",
                   0)) ==
        "malformed .npy header (shape): dimension 9223372036854775808 does not fit in 64 bits");
}

TEST_CASE("npy: the data must be exactly what the header declares") {
  const std::string d = "{'descr': '<i4', 'fortran_order': False, 'shape': (3, 2), }";
  pypto::NpyArray a;
  std::string err;
  REQUIRE(pypto::ParseNpy(File(d, 24), &a, &err));
  CHECK(a.shape == std::vector<int64_t>{3, 2});
  CHECK(a.bytes.size() == 24);
  CHECK(Error(File(d, 23)) ==
        "truncated .npy data: shape (3, 2) of '<i4' needs 24 bytes, the file has 23");
  CHECK(Error(File(d, 25)) ==
        "oversized .npy data: shape (3, 2) of '<i4' needs 24 bytes, the file has 25");
  // A zero-sized array and a 0-d scalar.
  REQUIRE(pypto::ParseNpy(File("{'descr': '<f4', 'fortran_order': False, 'shape': (0, 5), }", 0),
                          &a, &err));
  CHECK(a.bytes.empty());
  REQUIRE(pypto::ParseNpy(File("{'descr': '<f8', 'fortran_order': False, 'shape': (), }", 8), &a,
                          &err));
  CHECK(a.shape.empty());
}

TEST_CASE("npy: header fields are validated one by one") {
  auto hdr = [](const std::string& descr, const std::string& order, const std::string& shape) {
    return File(
        "{'descr': " + descr + ", 'fortran_order': " + order + ", 'shape': " + shape + ", }", 8);
  };
  // Accepted spellings: double quotes, Python 2 long dims, no trailing comma.
  pypto::NpyArray a;
  std::string err;
  CHECK(pypto::ParseNpy(hdr("\"<f4\"", "False", "(2L,)"), &a, &err));
  CHECK(pypto::ParseNpy(File("{'descr': '<f4', 'fortran_order': False, 'shape': (2,)}", 8), &a,
                        &err));
  CHECK(Error(hdr("'>f4'", "False", "(2,)")) ==
        "unsupported .npy dtype '>f4' (supported: <f4 <f2 <f8 <i4 <i8 <i2 |i1 |u1 |b1 <u2 <u4 <u8; "
        "big-endian is not)");
  CHECK(Error(hdr("4", "False", "(2,)")) ==
        "malformed .npy header (descr): expected a quoted dtype string");
  CHECK(Error(hdr("'<f4'", "0", "(2,)")) ==
        "malformed .npy header (fortran_order): expected True or False");
  CHECK(Error(hdr("'<f4'", "True", "(2,)")) == "fortran-ordered .npy arrays are not supported");
  CHECK(Error(hdr("'<f4'", "False", "[2]")) ==
        "malformed .npy header (shape): expected a tuple '(...)'");
  CHECK(Error(hdr("'<f4'", "False", "(-2,)")) ==
        "malformed .npy header (shape): expected a non-negative integer dimension");
  CHECK(Error(hdr("'<f4'", "False", "(2.5,)")) ==
        "malformed .npy header (shape): expected ',' or ')' after a dimension");
  CHECK(Error(File("{'descr': '<f4', 'fortran_order': False}", 8)) ==
        "malformed .npy header: missing key 'shape'");
  CHECK(Error(File("{'descr': '<f4', 'shape': (2,), 'shape': (2,)}", 8)) ==
        "malformed .npy header: key 'shape' appears twice");
  CHECK(Error(File("{'descr': '<f4', 'fortran_order': False, 'shape': (2,), 'x': 1}", 8)) ==
        "malformed .npy header: unknown key 'x' (expected descr, fortran_order, shape)");
  CHECK(Error(File("'descr': '<f4'", 8)) ==
        "malformed .npy header: expected '{' at the start of the dict");
  CHECK(Error(File("{'descr': '<f4', 'fortran_order': False, 'shape': (2,)} junk", 8)) ==
        "malformed .npy header: unexpected text after the dict");
  CHECK(Error(File("{'descr': '<f4', 'fortran_order': False, 'shape': (2,)}", 8, 4)) ==
        "unsupported .npy version 4.0 (supported: 1.0, 2.0, 3.0)");
  CHECK(Error(File("{'descr': '<f4', 'fortran_order': False, 'shape': (2,)}", 8, 1, 1)) ==
        "unsupported .npy version 1.1 (supported: 1.0, 2.0, 3.0)");
  std::string cut =
      File("{'descr': '<f4', 'fortran_order': False, 'shape': (2,)}", 0).substr(0, 40);
  CHECK(Error(cut) ==
        "truncated .npy header: it claims 118 bytes, the file has 30 after the "
        "preamble");
}
