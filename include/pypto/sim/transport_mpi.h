// The MPI-3 RMA transport: `mpirun -np P pypto-run FILE --transport=mpi`
// runs one rank per process. Windows are MPI_Win_allocate'd collectively inside
// one MPI_Win_lock_all(MPI_MODE_NOCHECK) epoch; gets and puts are
// MPI_Get / MPI_Put completed by MPI_Win_flush at the end of each op; atomic
// adds are MPI_Accumulate(MPI_SUM) (FP32, FP64, INT32, INT16, INT8) or an
// MPI_Compare_and_swap loop computing exactly the in-process sum (FP16, BF16,
// the rest: MPI has no 16-bit float type); a notify is MPI_Win_sync (this
// process's stores visible) then MPI_Accumulate(MPI_SUM / MPI_REPLACE) on the
// INT32 cell and a flush; a wait polls MPI_Fetch_and_op(MPI_NO_OP) + flush
// (the scheduler's spin / yield / sleep backoff) and ends with MPI_Win_sync.
// Built when CMake finds MPI (src/sim/transport_mpi.cc; otherwise
// src/sim/transport_mpi_absent.cc, whose StartMpiTransport says so).
#pragma once

#include <memory>
#include <string>

#include "pypto/sim/transport.h"

namespace pypto::sim {

// Whether this build has the MPI transport.
bool MpiTransportBuilt();

// Initialises MPI (MPI_THREAD_SERIALIZED; every MPI call is made under one
// lock) for a process mpirun started and returns its transport, which
// finalises MPI when destroyed (after every window is freed). Null with
// *error when the build has no MPI or the process was not started by mpirun.
std::unique_ptr<Transport> StartMpiTransport(int* argc, char*** argv, std::string* error);

}  // namespace pypto::sim
