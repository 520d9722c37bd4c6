// .npy reader/writer (see include/pypto/core/npy.h for the format subset).
#include "pypto/core/npy.h"

#include <cstring>
#include <fstream>
#include <sstream>

namespace pypto {

std::string NpyDescr(DataType t) {
  switch (t) {
    case DataType::kFP32:
      return "<f4";
    case DataType::kFP16:
      return "<f2";
    case DataType::kFP64:
      return "<f8";
    case DataType::kInt32:
      return "<i4";
    case DataType::kInt64:
    case DataType::kIndex:
      return "<i8";
    case DataType::kInt16:
      return "<i2";
    case DataType::kInt8:
      return "|i1";
    case DataType::kUInt8:
      return "|u1";
    case DataType::kBool:
      return "|b1";
    case DataType::kUInt16:
    case DataType::kBF16:
      return "<u2";
    case DataType::kUInt32:
      return "<u4";
    case DataType::kUInt64:
      return "<u8";
  }
  return "";
}

static bool DescrToDType(std::string_view d, DataType* t) {
  struct M {
    const char* s;
    DataType t;
  };
  static const M table[] = {
      {"<f4", DataType::kFP32},   {"<f2", DataType::kFP16},   {"<f8", DataType::kFP64},
      {"<i4", DataType::kInt32},  {"<i8", DataType::kInt64},  {"<i2", DataType::kInt16},
      {"|i1", DataType::kInt8},   {"|u1", DataType::kUInt8},  {"|b1", DataType::kBool},
      {"<u2", DataType::kUInt16}, {"<u4", DataType::kUInt32}, {"<u8", DataType::kUInt64},
      {"<b1", DataType::kBool},   {"<i1", DataType::kInt8},   {"<u1", DataType::kUInt8},
  };
  for (const M& m : table)
    if (d == m.s) {
      *t = m.t;
      return true;
    }
  return false;
}

// Finds `'key':` in the header dict and returns the text after the colon.
static bool FindKey(std::string_view h, std::string_view key, std::string_view* rest) {
  // Built by appends: GCC 12 at -O3 reports a false -Wrestrict overlap for
  // "'" + std::string(key) + "'".
  std::string k1;
  k1.reserve(key.size() + 2);
  k1 += '\'';
  k1.append(key);
  k1 += '\'';
  size_t p = h.find(k1);
  if (p == std::string_view::npos) return false;
  p = h.find(':', p + k1.size());
  if (p == std::string_view::npos) return false;
  ++p;
  while (p < h.size() && h[p] == ' ') ++p;
  *rest = h.substr(p);
  return true;
}

bool ParseNpy(std::string_view data, NpyArray* out, std::string* error) {
  auto fail = [&](const std::string& m) {
    *error = m;
    return false;
  };
  if (data.size() < 10 || std::memcmp(data.data(), "\x93NUMPY", 6) != 0)
    return fail("not a .npy file (bad magic)");
  int major = static_cast<uint8_t>(data[6]);
  size_t hlen, hstart;
  if (major == 1) {
    hlen = static_cast<uint8_t>(data[8]) | (static_cast<uint8_t>(data[9]) << 8);
    hstart = 10;
  } else if (major == 2 || major == 3) {
    if (data.size() < 12) return fail("truncated .npy header");
    hlen = 0;
    for (int i = 0; i < 4; ++i) hlen |= size_t(static_cast<uint8_t>(data[8 + i])) << (8 * i);
    hstart = 12;
  } else {
    return fail("unsupported .npy version " + std::to_string(major));
  }
  if (hstart + hlen > data.size()) return fail("truncated .npy header");
  std::string_view h = data.substr(hstart, hlen);
  std::string_view v;
  if (!FindKey(h, "descr", &v) || v.empty() || (v[0] != '\'' && v[0] != '"'))
    return fail("malformed .npy header (descr)");
  size_t q = v.find(v[0], 1);
  if (q == std::string_view::npos) return fail("malformed .npy header (descr)");
  std::string_view descr = v.substr(1, q - 1);
  if (!DescrToDType(descr, &out->dtype))
    return fail("unsupported .npy dtype '" + std::string(descr) +
                "' (supported: <f4 <f2 <f8 <i4 <i8 <i2 |i1 |u1 |b1 <u2; big-endian is not)");
  if (!FindKey(h, "fortran_order", &v)) return fail("malformed .npy header (fortran_order)");
  if (v.substr(0, 4) == "True") return fail("fortran-ordered .npy arrays are not supported");
  if (!FindKey(h, "shape", &v) || v.empty() || v[0] != '(')
    return fail("malformed .npy header (shape)");
  size_t close = v.find(')');
  if (close == std::string_view::npos) return fail("malformed .npy header (shape)");
  out->shape.clear();
  std::string_view dims = v.substr(1, close - 1);
  size_t i = 0;
  while (i < dims.size()) {
    while (i < dims.size() && (dims[i] == ' ' || dims[i] == ',')) ++i;
    if (i >= dims.size()) break;
    if (dims[i] < '0' || dims[i] > '9') return fail("malformed .npy header (shape)");
    int64_t d = 0;
    while (i < dims.size() && dims[i] >= '0' && dims[i] <= '9') {
      d = d * 10 + (dims[i] - '0');
      if (d > (int64_t(1) << 40)) return fail("malformed .npy header (dimension too large)");
      ++i;
    }
    while (i < dims.size() && dims[i] == 'L') ++i;
    out->shape.push_back(d);
  }
  int64_t n = 1;
  for (int64_t d : out->shape) {
    n *= d;
    if (n > (int64_t(1) << 40)) return fail("malformed .npy header (too many elements)");
  }
  size_t nbytes = size_t(n) * DTypeBytes(out->dtype);
  size_t body = hstart + hlen;
  if (data.size() - body < nbytes)
    return fail("truncated .npy data: expected " + std::to_string(nbytes) + " bytes, got " +
                std::to_string(data.size() - body));
  out->bytes.assign(data.begin() + body, data.begin() + body + nbytes);
  return true;
}

std::string SerializeNpy(const NpyArray& a) {
  std::ostringstream h;
  h << "{'descr': '" << NpyDescr(a.dtype) << "', 'fortran_order': False, 'shape': (";
  for (size_t i = 0; i < a.shape.size(); ++i) {
    h << a.shape[i];
    if (a.shape.size() == 1 || i + 1 < a.shape.size()) h << ",";
    if (i + 1 < a.shape.size()) h << " ";
  }
  h << "), }";
  std::string header = h.str();
  size_t total = 10 + header.size() + 1;
  size_t pad = (64 - total % 64) % 64;
  header.append(pad, ' ');
  header.push_back('\n');
  std::string out = "\x93NUMPY";
  out.push_back('\x01');
  out.push_back('\x00');
  out.push_back(static_cast<char>(header.size() & 0xff));
  out.push_back(static_cast<char>((header.size() >> 8) & 0xff));
  out += header;
  out.append(reinterpret_cast<const char*>(a.bytes.data()), a.bytes.size());
  return out;
}

bool ReadNpyFile(const std::string& path, NpyArray* out, std::string* error) {
  std::ifstream f(path, std::ios::binary);
  if (!f) {
    *error = "cannot open '" + path + "'";
    return false;
  }
  std::stringstream ss;
  ss << f.rdbuf();
  std::string data = ss.str();
  if (!ParseNpy(data, out, error)) {
    *error = "'" + path + "': " + *error;
    return false;
  }
  return true;
}

bool WriteNpyFile(const std::string& path, const NpyArray& a, std::string* error) {
  std::ofstream f(path, std::ios::binary);
  if (!f) {
    *error = "cannot write '" + path + "'";
    return false;
  }
  std::string s = SerializeNpy(a);
  f.write(s.data(), static_cast<std::streamsize>(s.size()));
  if (!f) {
    *error = "error writing '" + path + "'";
    return false;
  }
  return true;
}

}  // namespace pypto
