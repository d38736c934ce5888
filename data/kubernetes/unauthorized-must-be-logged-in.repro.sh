# requires: kubectl python ip
# timeout: 60
# Points kubectl at a local HTTP endpoint that answers every request with 401, so API discovery, the first request kubectl makes, is rejected as a real API server rejects a bad token.
. "$REPRO_LIB/kube.sh"
cat > deny.py <<'PY'
import http.server
class Deny(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        self.send_response(401)
        self.send_header("Content-Length", "0")
        self.end_headers()
    def log_message(self, *args):
        pass
http.server.HTTPServer(("127.0.0.1", 16401), Deny).serve_forever()
PY
python deny.py &
kube_wait_port 16401
kube_use_server http://127.0.0.1:16401 expired-token
kubectl get pods
kill %1
