"""Type stubs of the pybind11 extension pypto._core (bindings/*.cc)."""

from typing import Any, Dict, Iterable, List, Mapping, Optional, Sequence, Tuple, Union

import numpy

class PyptoError(Exception):
    """Base of user-program errors; message = rendered diagnostics."""
    diagnostics: List[Dict[str, Any]]

class ParseError(PyptoError): ...
class VerifyError(PyptoError): ...
class PassError(PyptoError): ...
class EmitError(PyptoError): ...

class SimError(PyptoError):
    exit_code: int

class ArgumentError(PyptoError, TypeError, ValueError):
    """A pypto function got an argument of the wrong type or value, or an unknown keyword."""

class InternalError(RuntimeError): ...

MAX_RANKS: int  # largest world size of run_program / pypto-run
DEFAULT_MEMORY_LIMIT: int  # bytes; run_program's default memory_limit

class Program:
    """A parsed or transformed program; owns its compilation context."""
    @property
    def name(self) -> str: ...
    @property
    def function_names(self) -> List[str]: ...
    @property
    def functions(self) -> List[Dict[str, Any]]: ...
    @property
    def dynamic_dims(self) -> List[str]: ...
    target_arch: str
    pass_log: str  # set on programs returned by run_passes
    def function_text(self, name: str) -> str: ...
    def __str__(self) -> str: ...

_Constant = Union[int, float, bool, str, Sequence[Any]]

def parse(text: str, filename: str = "<string>", allow_internal_ops: bool = True,
          constants: Optional[Union[Mapping[str, _Constant],
                                    Iterable[Tuple[str, _Constant]]]] = None,
          line_offset: int = 0, target_arch: str = "a2a3") -> Program:
    """Parses IR text into a Program; raises ParseError."""

def python_print(program: Program) -> str:
    """Canonical IR text of a program."""

def verify(program: Program, ssa: bool = False) -> None:
    """Runs the verifier; raises VerifyError."""

def structural_equal(a: Program, b: Program) -> bool:
    """Structural equality (spans and names ignored)."""

def structural_diff(a: Program, b: Program) -> Optional[str]:
    """None when equal, else the first difference."""

def structural_hash(program: Program) -> int:
    """Hash consistent with structural_equal."""

def run_passes(program: Program, pipeline: str = "default", verify_each: bool = False,
               roundtrip_each: bool = False, print_after: List[str] = ...,
               print_after_all: bool = False, time_passes: bool = False) -> Program:
    """Runs a pass pipeline; raises PassError."""

def pipeline_names() -> List[str]:
    """Named pipelines."""

def named_pipeline(name: str) -> Optional[List[str]]:
    """Pass names of a named pipeline."""

def pass_names(implemented_only: bool = False) -> List[str]:
    """Known passes in default-pipeline order."""

def emit_pto(program: Program, target_arch: str = "",
             emit_source_loc: bool = False) -> Dict[str, str]:
    """PTO MLIR text per kernel; raises EmitError."""

def run_program(program: Program, ranks: int, inputs: Mapping[str, numpy.ndarray] = ...,
                schedule: str = "parallel", entry: str = "", deadline_s: float = 30.0,
                check_signals: bool = False, detect_races: bool = False,
                poison_nan: bool = False, trace_path: str = "", stats: bool = False,
                inputs_random: bool = False, inputs_seed: int = 0,
                bf16_inputs: Mapping[str, Any] = ..., memory_limit: int = ...,
                verify: bool = True, max_steps: int = 0, check_alignment: bool = False
                ) -> Tuple[Dict[str, numpy.ndarray], str]:
    """Runs a program on simulated ranks; raises SimError (KeyboardInterrupt on Ctrl-C)."""

def parse_byte_size(text: str) -> int:
    """Bytes of "4G"-style text (K/M/G/T binary suffixes; "none" = 0)."""

def op_names(include_internal: bool = True) -> List[str]:
    """Registered op names, sorted."""

def op_info(name: str) -> Dict[str, Any]:
    """Registry entry of one op."""

def enum_table() -> List[Dict[str, Any]]:
    """Every IR enum's DSL spelling and ABI values."""

def dtypes() -> List[Tuple[str, int]]:
    """(DSL name, byte size) of every element type."""
