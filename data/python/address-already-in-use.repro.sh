# requires: python
# timeout: 60
# Starts a server on 127.0.0.1:8000 and then tries to bind a second one to the same port.
# the sandbox has its own network namespace with loopback down: bring lo up (SIOCSIFFLAGS, IFF_UP|IFF_LOOPBACK|IFF_RUNNING)
python -c 'import fcntl, socket, struct; fcntl.ioctl(socket.socket(), 0x8914, struct.pack("16sH14x", b"lo", 0x49))' 2>/dev/null || true
cat > twice.py <<'PY'
import http.server, socket
first = socket.socket()
first.bind(("127.0.0.1", 8000))
first.listen()
second = socket.socket()
second.bind(("127.0.0.1", 8000))
PY
python twice.py 2>&1 | tail -n 1
cat > http_twice.py <<'PY'
import http.server, socket
holder = socket.socket()
holder.bind(("127.0.0.1", 8000))
holder.listen()
http.server.HTTPServer(("127.0.0.1", 8000), http.server.SimpleHTTPRequestHandler)
PY
python http_twice.py 2>&1 | tail -n 1
cat > aio_twice.py <<'PY'
import asyncio, socket
async def main():
    holder = socket.socket()
    holder.bind(("127.0.0.1", 8000))
    holder.listen()
    await asyncio.start_server(lambda r, w: None, "127.0.0.1", 8000)   # what uvicorn/aiohttp do
asyncio.run(main())
PY
python aio_twice.py 2>&1 | tail -n 1
