// .npy reader/writer (see include/pypto/core/npy.h for the format subset).
#include "pypto/core/npy.h"

#include <cstring>
#include <fstream>
#include <optional>
#include <sstream>

#include "pypto/core/checked_int.h"

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

namespace {

// The header dict of a .npy file: `{'descr': '<f4', 'fortran_order': False,
// 'shape': (2, 3), }` followed by space padding and '\n'. Parsed strictly:
// exactly these three keys, each once; a string, a bool and a tuple of
// non-negative integers. Every failure names the field that is wrong.
class HeaderParser {
 public:
  explicit HeaderParser(std::string_view h) : h_(h) {}

  bool Parse(std::string* descr, bool* fortran, std::vector<int64_t>* shape, std::string* error) {
    err_ = error;
    Skip();
    if (!Eat('{')) return Fail("malformed .npy header: expected '{' at the start of the dict");
    bool seen_descr = false, seen_fortran = false, seen_shape = false;
    for (;;) {
      Skip();
      if (Eat('}')) break;
      std::string key;
      if (!String(&key)) return Fail("malformed .npy header: expected a quoted key");
      Skip();
      if (!Eat(':')) return Fail("malformed .npy header: expected ':' after '" + key + "'");
      Skip();
      bool* seen = key == "descr"           ? &seen_descr
                   : key == "fortran_order" ? &seen_fortran
                   : key == "shape"         ? &seen_shape
                                            : nullptr;
      if (!seen)
        return Fail("malformed .npy header: unknown key '" + key +
                    "' (expected descr, fortran_order, shape)");
      if (*seen) return Fail("malformed .npy header: key '" + key + "' appears twice");
      *seen = true;
      if (key == "descr" && !String(descr))
        return Fail("malformed .npy header (descr): expected a quoted dtype string");
      if (key == "fortran_order" && !Bool(fortran))
        return Fail("malformed .npy header (fortran_order): expected True or False");
      if (key == "shape" && !Shape(shape)) return false;
      Skip();
      if (Eat(',')) continue;
      Skip();
      if (Eat('}')) break;
      return Fail("malformed .npy header: expected ',' or '}' after '" + key + "'");
    }
    while (p_ < h_.size() && (h_[p_] == ' ' || h_[p_] == '\n' || h_[p_] == '\r')) ++p_;
    if (p_ != h_.size()) return Fail("malformed .npy header: unexpected text after the dict");
    if (!seen_descr) return Fail("malformed .npy header: missing key 'descr'");
    if (!seen_fortran) return Fail("malformed .npy header: missing key 'fortran_order'");
    if (!seen_shape) return Fail("malformed .npy header: missing key 'shape'");
    return true;
  }

 private:
  bool Fail(const std::string& m) {
    *err_ = m;
    return false;
  }
  void Skip() {
    while (p_ < h_.size() && h_[p_] == ' ') ++p_;
  }
  bool Eat(char c) {
    if (p_ < h_.size() && h_[p_] == c) {
      ++p_;
      return true;
    }
    return false;
  }
  bool Word(std::string_view w) {
    if (h_.substr(p_, w.size()) != w) return false;
    p_ += w.size();
    return true;
  }
  bool String(std::string* out) {
    if (p_ >= h_.size() || (h_[p_] != '\'' && h_[p_] != '"')) return false;
    size_t q = h_.find(h_[p_], p_ + 1);
    if (q == std::string_view::npos) return false;
    *out = std::string(h_.substr(p_ + 1, q - p_ - 1));
    p_ = q + 1;
    return true;
  }
  bool Bool(bool* out) {
    if (Word("True")) {
      *out = true;
      return true;
    }
    if (Word("False")) {
      *out = false;
      return true;
    }
    return false;
  }
  // `(d0, d1, ...)`: each a decimal integer that fits int64 (a trailing `L`
  // from Python 2 writers is accepted).
  bool Shape(std::vector<int64_t>* shape) {
    shape->clear();
    if (!Eat('(')) return Fail("malformed .npy header (shape): expected a tuple '(...)'");
    for (;;) {
      Skip();
      if (Eat(')')) return true;
      if (p_ >= h_.size() || h_[p_] < '0' || h_[p_] > '9')
        return Fail("malformed .npy header (shape): expected a non-negative integer dimension");
      int64_t d = 0;
      while (p_ < h_.size() && h_[p_] >= '0' && h_[p_] <= '9') {
        if (__builtin_mul_overflow(d, int64_t{10}, &d) ||
            __builtin_add_overflow(d, int64_t{h_[p_] - '0'}, &d))
          return Fail("malformed .npy header (shape): dimension " + Digits() +
                      " does not fit in 64 bits");
        ++p_;
      }
      Eat('L');
      shape->push_back(d);
      Skip();
      if (Eat(',')) continue;
      Skip();
      if (Eat(')')) return true;
      return Fail("malformed .npy header (shape): expected ',' or ')' after a dimension");
    }
  }
  // The run of digits around the current position (for messages).
  std::string Digits() const {
    size_t b = p_, e = p_;
    while (b > 0 && h_[b - 1] >= '0' && h_[b - 1] <= '9') --b;
    while (e < h_.size() && h_[e] >= '0' && h_[e] <= '9') ++e;
    return std::string(h_.substr(b, e - b));
  }

  std::string_view h_;
  size_t p_ = 0;
  std::string* err_ = nullptr;
};

std::string ShapeText(const std::vector<int64_t>& shape) {
  std::string s = "(";
  for (size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + (shape.size() == 1 ? ",)" : ")");
}

}  // namespace

bool ParseNpy(std::string_view data, NpyArray* out, std::string* error) {
  auto fail = [&](const std::string& m) {
    *error = m;
    return false;
  };
  if (data.size() < 10 || std::memcmp(data.data(), "\x93NUMPY", 6) != 0)
    return fail("not a .npy file (bad magic)");
  int major = static_cast<uint8_t>(data[6]), minor = static_cast<uint8_t>(data[7]);
  if (major < 1 || major > 3 || minor != 0)
    return fail("unsupported .npy version " + std::to_string(major) + "." + std::to_string(minor) +
                " (supported: 1.0, 2.0, 3.0)");
  size_t hlen, hstart;
  if (major == 1) {
    hlen = static_cast<uint8_t>(data[8]) | (static_cast<uint8_t>(data[9]) << 8);
    hstart = 10;
  } else {
    if (data.size() < 12) return fail("truncated .npy header");
    hlen = 0;
    for (int i = 0; i < 4; ++i) hlen |= size_t(static_cast<uint8_t>(data[8 + i])) << (8 * i);
    hstart = 12;
  }
  if (hlen > data.size() - hstart)
    return fail("truncated .npy header: it claims " + std::to_string(hlen) +
                " bytes, the file has " + std::to_string(data.size() - hstart) +
                " after the preamble");
  std::string descr;
  bool fortran = false;
  if (!HeaderParser(data.substr(hstart, hlen)).Parse(&descr, &fortran, &out->shape, error))
    return false;
  if (!DescrToDType(descr, &out->dtype))
    return fail("unsupported .npy dtype '" + descr +
                "' (supported: <f4 <f2 <f8 <i4 <i8 <i2 |i1 |u1 |b1 <u2 <u4 <u8; big-endian is "
                "not)");
  if (fortran) return fail("fortran-ordered .npy arrays are not supported");
  // Element count and byte size, overflow-checked: a tiny file must not claim
  // an array whose size wraps around.
  std::optional<int64_t> n = CheckedProduct(out->shape);
  if (!n)
    return fail(".npy shape " + ShapeText(out->shape) + " has more elements than fit in 64 bits");
  std::optional<int64_t> checked_bytes = CheckedMul(*n, DTypeBytes(out->dtype));
  if (!checked_bytes)
    return fail(".npy shape " + ShapeText(out->shape) + " of '" + descr +
                "' needs more than 2^63 bytes");
  int64_t nbytes = *checked_bytes;
  size_t body = hstart + hlen, have = data.size() - body;
  if (static_cast<uint64_t>(nbytes) != have)
    return fail(std::string(static_cast<uint64_t>(nbytes) > have ? "truncated" : "oversized") +
                " .npy data: shape " + ShapeText(out->shape) + " of '" + descr + "' needs " +
                std::to_string(nbytes) + " bytes, the file has " + std::to_string(have));
  out->bytes.assign(data.begin() + body, data.end());
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
