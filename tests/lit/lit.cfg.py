# lit configuration for the IR text tests: every .pir file under tests/lit is a
# test; pypto-opt / pypto-run / FileCheck / not resolve to the built tools.
#
# Every .pir also round-trips, without asking for it (roundtrip_format.py): after
# its RUN lines pass, a file that `pypto-opt FILE` accepts must print -> parse ->
# print byte-identically, and `--pipeline=default --roundtrip-each --verify-each`
# must give what `--pipeline=default` gives. A file pypto-opt rejects with
# diagnostics (exit 1: parse_errors/, malformed/, *_errors.pir, comment-only
# files whose RUN lines use other inputs) is left to its RUN lines; any other
# exit fails. tests/arch/lit_roundtrip_selftest.py shows the check fails.
import os
import sys

sys.path.insert(0, os.path.dirname(__file__))
from roundtrip_format import RoundTripShTest  # noqa: E402

config.name = "pypto-lit"
config.test_format = RoundTripShTest(execute_external=False)
config.suffixes = [".pir"]
config.excludes = ["lit.cfg.py", "lit.site.cfg.py", "Inputs", "lit.site.cfg.py.in"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(os.path.dirname(config.pypto_bin_dir), "tests", "lit-out")
config.environment["PATH"] = os.pathsep.join(
    [config.pypto_bin_dir, os.path.dirname(config.filecheck), config.environment.get("PATH", "")])
# %python imports this build's pypto (not whichever build wrote bindings/ last).
config.environment["PYTHONPATH"] = os.path.join(config.pypto_source_dir, "bindings")
if config.pypto_module_dir:
    config.environment["PYPTO_CORE_DIR"] = config.pypto_module_dir
config.substitutions.append(("%python", config.python_executable))
config.substitutions.append(("%srcroot", config.pypto_source_dir))
