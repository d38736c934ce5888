# requires: kubectl ip
# timeout: 60
# Applies a valid manifest while kubectl has no reachable API server, so client-side validation cannot fetch the OpenAPI schema.
ip link set lo up 2>/dev/null || true
unset KUBECONFIG
cat > deploy.yaml <<'YAML'
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 2
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      containers:
        - name: web
          image: nginx:1.27
YAML
kubectl apply -f deploy.yaml
