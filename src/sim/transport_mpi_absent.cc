// The MPI transport of a build without MPI (CMake found none): pypto-run
// --transport=mpi explains how to get one. Replaced by transport_mpi.cc when
// CMake finds MPI.
#include "pypto/sim/transport_mpi.h"

namespace pypto::sim {

bool MpiTransportBuilt() { return false; }

std::unique_ptr<Transport> StartMpiTransport(int*, char***, std::string* error) {
  *error =
      "pypto-run was built without MPI, so --transport=mpi is not available; install Open MPI "
      "(apt-get install libopenmpi-dev openmpi-bin, as .ci/setup.sh does) and re-run cmake, "
      "which then builds the MPI transport (-DPYPTO_MPI=ON, the default)";
  return nullptr;
}

}  // namespace pypto::sim
