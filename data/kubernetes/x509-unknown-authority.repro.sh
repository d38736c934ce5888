# requires: kubectl openssl python ip
# timeout: 60
# Serves TLS on 127.0.0.1 with a self-signed certificate that the kubeconfig does not trust, then runs kubectl against it.
. "$REPRO_LIB/kube.sh"
openssl req -x509 -newkey rsa:2048 -nodes -keyout key.pem -out cert.pem -days 2 \
  -subj /CN=127.0.0.1 -addext subjectAltName=IP:127.0.0.1 2>/dev/null
cat > tls_server.py <<'PY'
import http.server, ssl
srv = http.server.HTTPServer(("127.0.0.1", 16443), http.server.BaseHTTPRequestHandler)
ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
ctx.load_cert_chain("cert.pem", "key.pem")
srv.socket = ctx.wrap_socket(srv.socket, server_side=True)
srv.serve_forever()
PY
python tls_server.py 2>/dev/null &
kube_wait_port 16443
kube_use_server https://127.0.0.1:16443 dev-token
kubectl get pods
kill %1
