# requires: python
# timeout: 60
# Calls asyncio.run() and loop.run_until_complete() from code that is already running inside an event loop (as Jupyter cells do).
cat > nested_run.py <<'PY'
import asyncio
async def fetch():
    return 1
async def main():
    return asyncio.run(fetch())
asyncio.run(main())
PY
python nested_run.py 2>&1 | grep '^RuntimeError'
cat > nested_ruc.py <<'PY'
import asyncio
async def fetch():
    return 1
async def main():
    loop = asyncio.get_event_loop()
    return loop.run_until_complete(fetch())
asyncio.run(main())
PY
python nested_ruc.py 2>&1 | grep '^RuntimeError'
