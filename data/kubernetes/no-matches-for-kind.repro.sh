# requires: kubectl python ip
# timeout: 60
# Serves a minimal API discovery document (core/v1, apps/v1, no CRDs) on 127.0.0.1 and applies manifests whose apiVersion/kind the server does not serve.
. "$REPRO_LIB/kube.sh"
kube_discovery_server 16080
kube_use_server http://127.0.0.1:16080
cat > deploy.yaml <<'YAML'
apiVersion: extensions/v1beta1
kind: Deployment
metadata:
  name: web
spec:
  template:
    spec:
      containers:
        - name: web
          image: nginx:1.27
YAML
cat > certificate.yaml <<'YAML'
apiVersion: cert-manager.io/v1
kind: Certificate
metadata:
  name: web-tls
  namespace: default
spec:
  secretName: web-tls
YAML
# client-side schema validation needs /openapi, which this stub does not serve
kubectl apply --validate=false -f deploy.yaml
kubectl apply --validate=false -f certificate.yaml
kill %1
