"""pytest configuration for the Python DSL tests: makes `import pypto` work when
pytest is run directly (ctest sets PYTHONPATH=bindings itself)."""

import os
import sys

_BINDINGS = os.path.join(os.path.dirname(__file__), "..", "..", "bindings")
if os.path.abspath(_BINDINGS) not in [os.path.abspath(p) for p in sys.path]:
    sys.path.insert(0, os.path.abspath(_BINDINGS))
