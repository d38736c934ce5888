# requires: python openssl
# timeout: 60
# Serves HTTPS on localhost with a leaf certificate from a private CA (and a self-signed one) and connects with default verification.
set -u
# the sandbox has its own network namespace with loopback down: bring lo up (SIOCSIFFLAGS, IFF_UP|IFF_LOOPBACK|IFF_RUNNING)
python -c 'import fcntl, socket, struct; fcntl.ioctl(socket.socket(), 0x8914, struct.pack("16sH14x", b"lo", 0x49))' 2>/dev/null || true
openssl req -x509 -newkey rsa:2048 -nodes -keyout ca.key -out ca.pem -days 2 -subj "/CN=Corp Root CA" 2>/dev/null
openssl req -newkey rsa:2048 -nodes -keyout leaf.key -out leaf.csr -subj "/CN=localhost" 2>/dev/null
printf 'subjectAltName=DNS:localhost\n' > ext.cnf
openssl x509 -req -in leaf.csr -CA ca.pem -CAkey ca.key -CAcreateserial -out leaf.pem -days 2 -extfile ext.cnf 2>/dev/null
openssl req -x509 -newkey rsa:2048 -nodes -keyout self.key -out self.pem -days 2 -subj "/CN=localhost" -addext subjectAltName=DNS:localhost 2>/dev/null
cat > client.py <<'PY'
import http.server, ssl, sys, threading, urllib.request
cert, key = sys.argv[1], sys.argv[2]
srv = http.server.HTTPServer(("127.0.0.1", 0), http.server.SimpleHTTPRequestHandler)
ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
ctx.load_cert_chain(cert, key)
srv.socket = ctx.wrap_socket(srv.socket, server_side=True)
threading.Thread(target=srv.serve_forever, daemon=True).start()
urllib.request.urlopen(f"https://localhost:{srv.server_address[1]}/", timeout=5)   # default CA bundle
PY
python client.py leaf.pem leaf.key urllib 2>&1 | grep -E '^(ssl|urllib)[.]'
python client.py self.pem self.key urllib 2>&1 | grep -E '^(ssl|urllib)[.]'
