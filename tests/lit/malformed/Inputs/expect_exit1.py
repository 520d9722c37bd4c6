# Runs a command and succeeds only if it exits with status 1 (a reported user
# error) and wrote an `error:` diagnostic; a crash, hang (60 s), success or any
# other status fails. The command's stderr is echoed for FileCheck.
import subprocess
import sys

try:
    r = subprocess.run(sys.argv[1:], capture_output=True, timeout=60)
except subprocess.TimeoutExpired:
    print("expect_exit1: command timed out (hang)")
    sys.exit(2)
sys.stdout.write(r.stderr.decode("utf-8", "replace"))
if r.returncode != 1:
    print(f"expect_exit1: expected exit status 1, got {r.returncode}")
    sys.exit(2)
if b"error:" not in r.stderr:
    print("expect_exit1: no 'error:' diagnostic")
    sys.exit(2)
