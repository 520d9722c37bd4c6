# Runs a command and succeeds only when it exits with the expected code, passing
# its stdout/stderr through. lit's internal shell has no `$?`, and `not` only
# checks for non-zero, so exit-code tests (0 / 1 / 2) of pypto-opt use this.
# usage: expect_exit.py CODE CMD [ARGS...]
import subprocess
import sys

want = int(sys.argv[1])
proc = subprocess.run(sys.argv[2:], stdin=sys.stdin)
if proc.returncode != want:
    sys.stderr.write(f"expect_exit: '{' '.join(sys.argv[2:])}' exited with "
                     f"{proc.returncode}, expected {want}\n")
    sys.exit(1)
