# requires: python
# timeout: 60
# Calls asyncio.get_event_loop() in a worker thread, where no loop has been set.
cat > worker.py <<'PY'
import asyncio, threading
def worker():
    loop = asyncio.get_event_loop()
    loop.run_until_complete(asyncio.sleep(0))
t = threading.Thread(target=worker)
t.start()
t.join()
PY
python worker.py 2>&1 | grep '^RuntimeError'
