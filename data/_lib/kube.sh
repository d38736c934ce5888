# Shared helpers for kubectl reproduction scripts (sourced: . "$REPRO_LIB/kube.sh").
# Everything lives in the script's temporary working folder; servers listen on 127.0.0.1 only.

ip link set lo up 2>/dev/null || true

# kube_wait_port PORT: wait up to 5 s until something accepts TCP connections on 127.0.0.1:PORT.
kube_wait_port() {
  for _ in $(seq 50); do
    python -c "import socket, sys; socket.create_connection(('127.0.0.1', int(sys.argv[1])), 1)" "$1" 2>/dev/null && return 0
    sleep 0.1
  done
  return 1
}

# kube_use_server URL [TOKEN]: write ./kubeconfig with one context "dev" pointing at URL
# (with a bearer token when TOKEN is given) and export KUBECONFIG.
kube_use_server() {
  export KUBECONFIG=$PWD/kubeconfig
  kubectl config set-cluster dev --server="$1" >/dev/null
  if [ -n "${2:-}" ]; then
    kubectl config set-credentials dev --token="$2" >/dev/null
    kubectl config set-context dev --cluster=dev --user=dev >/dev/null
  else
    kubectl config set-context dev --cluster=dev >/dev/null
  fi
  kubectl config use-context dev >/dev/null
}

# kube_discovery_server PORT: serve a minimal API discovery document (core/v1 pods,
# apps/v1 deployments, no CRDs, no /openapi) on 127.0.0.1:PORT in the background.
kube_discovery_server() {
  cat > discovery.py <<'PY'
import http.server, json, sys
PORT = int(sys.argv[1])
DOCS = {
    "/api": {"kind": "APIVersions", "versions": ["v1"],
             "serverAddressByClientCIDRs": [{"clientCIDR": "0.0.0.0/0", "serverAddress": "127.0.0.1:%d" % PORT}]},
    "/apis": {"kind": "APIGroupList", "apiVersion": "v1", "groups": [
        {"name": "apps", "versions": [{"groupVersion": "apps/v1", "version": "v1"}],
         "preferredVersion": {"groupVersion": "apps/v1", "version": "v1"}}]},
    "/api/v1": {"kind": "APIResourceList", "groupVersion": "v1", "resources": [
        {"name": "pods", "singularName": "pod", "namespaced": True, "kind": "Pod",
         "verbs": ["get", "list", "create", "delete"], "shortNames": ["po"]}]},
    "/apis/apps/v1": {"kind": "APIResourceList", "apiVersion": "v1", "groupVersion": "apps/v1", "resources": [
        {"name": "deployments", "singularName": "deployment", "namespaced": True, "kind": "Deployment",
         "verbs": ["get", "list", "create", "delete"], "shortNames": ["deploy"]}]},
}
class Discovery(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        doc = DOCS.get(self.path.split("?")[0])
        code = 200 if doc else 404
        body = json.dumps(doc or {"kind": "Status", "apiVersion": "v1", "status": "Failure",
                                  "reason": "NotFound", "code": 404}).encode()
        self.send_response(code)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)
    def log_message(self, *args):
        pass
http.server.HTTPServer(("127.0.0.1", PORT), Discovery).serve_forever()
PY
  python discovery.py "$1" &
  kube_wait_port "$1"
}
