# requires: git python3 ip
# timeout: 90
# Serves a repository over smart HTTP with git http-backend behind a tiny proxy that, like nginx's client_max_body_size, answers 413 to large POST bodies; git push then fails, in English and zh_CN.
. "$REPRO_LIB/git.sh"
git_identity
ip link set lo up 2>/dev/null
git init -q --bare srv/app.git && git -C srv/app.git config http.receivepack true
cat > proxy.py <<'PY'
import http.server, os, subprocess, sys
ROOT = os.path.abspath("srv")
LIMIT = 64 * 1024
class H(http.server.BaseHTTPRequestHandler):
    def log_message(self, *a): pass
    def cgi(self, body=b""):
        path, _, query = self.path.partition("?")
        env = dict(os.environ, GIT_PROJECT_ROOT=ROOT, GIT_HTTP_EXPORT_ALL="1", PATH_INFO=path,
                   QUERY_STRING=query, REQUEST_METHOD=self.command, REMOTE_ADDR="127.0.0.1",
                   CONTENT_TYPE=self.headers.get("Content-Type", ""), CONTENT_LENGTH=str(len(body)))
        out = subprocess.run(["git", "http-backend"], input=body, env=env, capture_output=True).stdout
        head, _, payload = out.partition(b"\r\n\r\n")
        status = 200
        hdrs = []
        for line in head.decode().split("\r\n"):
            k, _, v = line.partition(": ")
            if k.lower() == "status": status = int(v.split()[0])
            elif k: hdrs.append((k, v))
        self.send_response(status)
        for k, v in hdrs: self.send_header(k, v)
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers(); self.wfile.write(payload)
    def do_GET(self): self.cgi()
    def do_POST(self):
        n = int(self.headers.get("Content-Length") or 0)
        if self.headers.get("Transfer-Encoding") == "chunked" or n > LIMIT:
            if n: self.rfile.read(n)
            else:
                while True:
                    size = int(self.rfile.readline().split(b";")[0], 16)
                    self.rfile.read(size + 2)
                    if size == 0: break
            self.send_response(413); self.send_header("Content-Length", "0"); self.send_header("Connection", "close"); self.end_headers(); return
        self.cgi(self.rfile.read(n))
s = http.server.HTTPServer(("127.0.0.1", 0), H)
with open("port.tmp", "w") as f: f.write(str(s.server_address[1]))
os.rename("port.tmp", "port")
s.serve_forever()
PY
python3 proxy.py & srv=$!
trap 'kill $srv 2>/dev/null' EXIT
for i in $(seq 100); do [ -s port ] && break; sleep 0.1; done
url="http://127.0.0.1:$(cat port)/app.git"
for i in $(seq 50); do git ls-remote "$url" >/dev/null 2>&1 && break; sleep 0.2; done
git clone -q "$url" app 2>/dev/null; cd app
head -c 3000000 /dev/urandom > model.bin && git add model.bin && git commit -qm 'add model'
git push origin main
LC_ALL=zh_CN.UTF-8 LANGUAGE=zh_CN git push origin main
echo '--- a small push goes through:'
git reset -q --hard HEAD~1 2>/dev/null || git update-ref -d HEAD
git rm -q --cached model.bin 2>/dev/null; rm -f model.bin
echo hi > README.md && git add README.md && git commit -qm readme && git push origin main
kill $srv
