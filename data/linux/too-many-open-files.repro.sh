# requires: python bash
# Lowers the open-file limit (ulimit -n) and opens files without closing them, in Python and in bash.
set -u
. "$REPRO_LIB/shell.sh"
python - <<'PY'
import os, resource
os.closerange(3, 4096)          # start from a known state: only stdin/stdout/stderr open
resource.setrlimit(resource.RLIMIT_NOFILE, (64, 64))
handles = []
for i in range(100):
    handles.append(open(f"part-{i:03d}.csv", "w"))
PY
ibash 'ulimit -n 8; exec 3>a 4>b 5>c 6>d 7>e 8>f 9>g'
