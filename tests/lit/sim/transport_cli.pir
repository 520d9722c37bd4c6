# pypto-run --transport: the spellings, and --transport=mpi started without
# mpirun (or in a build without MPI). The MPI engine itself runs in the
# mpi_engine ctest (tests/mpi/mpi_engine.py), which needs mpirun.
# RUN: %python %S/Inputs/simtool.py expect-exit 2 -- pypto-run %s --ranks 2 --transport=tcp | FileCheck %s --check-prefix=BAD
# BAD: pypto-run: error: --transport expects inprocess or mpi, got 'tcp'
# RUN: %python %S/Inputs/simtool.py expect-exit 2 -- pypto-run %s --entry k --transport=mpi | FileCheck %s --check-prefix=NOMPI
# NOMPI: pypto-run: error: {{--transport=mpi runs one rank per process and needs mpirun to start the processes, but this one was not started by it \(no OMPI_COMM_WORLD_SIZE or PMIX_RANK in the environment\); run: mpirun -np P pypto-run FILE --transport=mpi \.\.\.|pypto-run was built without MPI, so --transport=mpi is not available; install Open MPI}}
# RUN: %python %S/Inputs/simtool.py expect-exit 2 -- pypto-run %s --entry k --transport=mpi --schedule=random:1 --sweep 3 | FileCheck %s --check-prefix=SWEEP
# SWEEP: pypto-run: error: --sweep needs the in-process engine (--transport=inprocess)
# The in-process engine is the default and can be named.
# RUN: pypto-run %s --ranks 2 --entry k --transport=inprocess --deadline 5 --inputs-random=1 --output-dir %t.d
import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class TransportCli:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, x: pl.Tensor[[1, 8], pl.FP32], y: pl.Out[pl.Tensor[[1, 8], pl.FP32]]):
        t = pl.load(x, [0, 0], [1, 8])
        y = pl.store(t, [0, 0], y)
        return y
