# requires: python
# timeout: 60
# Starts a spawn-method child process at import time of the main module, without the __main__ guard.
cat > mp_noguard.py <<'PY'
import multiprocessing as mp

def work():
    print("working")

ctx = mp.get_context("spawn")    # the default start method on Windows and macOS
p = ctx.Process(target=work)     # started at import time: no  if __name__ == "__main__":  guard
p.start()
p.join()
PY
timeout 30 python mp_noguard.py 2>&1 | grep -v '^  File\|^    [a-z_]'
