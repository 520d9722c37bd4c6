// The executor -> Python bridge for HOST SubWorker functions. The executor calls
// it on the run's host thread, which does not hold the GIL (the binding released
// it for the run); it takes the GIL for the Python call only, and never holds an
// executor lock meanwhile, so executor threads and Python threads cannot
// deadlock on each other. Arguments travel as numpy copies: Out / InOut arrays
// are written back by the executor after the call, so a reference the Python
// code keeps never points into executor memory.
#include <pybind11/numpy.h>

#include <cstring>
#include <stdexcept>

#include "bindings.h"
#include "numpy_dtype.h"
#include "pypto/sim/value.h"

namespace pypto::bindings {

namespace {

py::array ToNumpy(const sim::HostArray& h, bool writable) {
  std::vector<py::ssize_t> shape(h.shape.begin(), h.shape.end());
  py::array arr(NumpyDType(h.dtype, Bf16As::kFloat32), shape);
  if (h.dtype == DataType::kBF16) {
    auto* out = static_cast<float*>(arr.mutable_data());
    for (size_t i = 0; i + 2 <= h.bytes.size(); i += 2) {
      uint16_t b;
      std::memcpy(&b, h.bytes.data() + i, 2);
      out[i / 2] = sim::BF16ToFloat(b);
    }
  } else if (!h.bytes.empty()) {
    std::memcpy(arr.mutable_data(), h.bytes.data(), h.bytes.size());
  }
  if (!writable) arr.attr("setflags")(py::arg("write") = false);
  return arr;
}

// `value` (the caller's array, maybe replaced by a same-shaped one) into `h`.
void FromNumpy(const py::handle& value, sim::HostArray& h, const std::string& what) {
  py::array arr = py::array::ensure(value, py::array::c_style);
  if (!arr) throw std::runtime_error(what + " is not an array");
  py::dtype want = NumpyDType(h.dtype, Bf16As::kFloat32);
  if (!arr.dtype().is(want)) arr = py::array::ensure(arr.attr("astype")(want), py::array::c_style);
  std::vector<int64_t> shape;
  for (py::ssize_t i = 0; i < arr.ndim(); ++i) shape.push_back(arr.shape(i));
  if (shape != h.shape)
    throw std::runtime_error(what + " has shape " + sim::ShapeString(shape) + ", expected " +
                             sim::ShapeString(h.shape));
  if (h.dtype == DataType::kBF16) {
    const auto* in = static_cast<const float*>(arr.data());
    for (size_t i = 0; i + 2 <= h.bytes.size(); i += 2) {
      uint16_t b = sim::FloatToBF16(in[i / 2]);
      std::memcpy(h.bytes.data() + i, &b, 2);
    }
  } else if (!h.bytes.empty()) {
    std::memcpy(h.bytes.data(), arr.data(), h.bytes.size());
  }
}

DataType FromNumpyDType(const py::dtype& d) {
  if (auto t = DataTypeOfNumpy(d)) return *t;
  throw std::runtime_error("returned an array of unsupported dtype " +
                           py::repr(d).cast<std::string>());
}

}  // namespace

sim::SubWorkerFn MakeSubWorkerBridge(py::object dispatcher,
                                     std::shared_ptr<PendingPyError> pending) {
  auto cb = std::make_shared<py::object>(std::move(dispatcher));
  return [cb, pending](sim::SubWorkerCall& call) {
    py::gil_scoped_acquire gil;
    const std::string& name = call.fn->name;
    py::list args;
    std::vector<py::object> arrays;
    for (size_t i = 0; i < call.args.size(); ++i) {
      py::array a = ToNumpy(call.args[i], call.writable[i]);
      arrays.push_back(a);
      args.append(call.is_scalar[i] ? a.attr("item")() : py::object(a));
    }
    py::object r;
    try {
      r = (*cb)(name, args);
    } catch (py::error_already_set& e) {
      std::string type = e.type() ? py::str(e.type().attr("__name__")).cast<std::string>() : "";
      std::string msg = py::str(e.value()).cast<std::string>();
      if (!pending->error) pending->error = std::make_unique<py::error_already_set>(std::move(e));
      throw std::runtime_error(type + (msg.empty() ? "" : ": " + msg));
    }
    try {
      for (size_t i = 0; i < call.args.size(); ++i)
        if (call.writable[i])
          FromNumpy(arrays[i], call.args[i], "argument '" + call.fn->params[i]->name_hint + "'");
      call.returned = !r.is_none();
      if (!call.returned) return;
      for (auto item : r.cast<py::list>()) {
        auto pair = item.cast<py::tuple>();
        sim::SubWorkerCall::Result res;
        res.arg = pair[0].cast<int>();
        if (res.arg < 0) {
          py::array arr = py::array::ensure(pair[1], py::array::c_style);
          if (!arr) throw std::runtime_error("returned a value that is not array-like");
          res.array.dtype = FromNumpyDType(arr.dtype());
          for (py::ssize_t k = 0; k < arr.ndim(); ++k) res.array.shape.push_back(arr.shape(k));
          res.array.bytes.resize(static_cast<size_t>(arr.nbytes()));
          if (arr.nbytes() > 0)
            std::memcpy(res.array.bytes.data(), arr.data(), res.array.bytes.size());
        }
        call.results.push_back(std::move(res));
      }
    } catch (py::error_already_set& e) {
      std::string msg = py::str(e.value()).cast<std::string>();
      throw std::runtime_error("a bad result: " + msg);
    }
  };
}

}  // namespace pypto::bindings
