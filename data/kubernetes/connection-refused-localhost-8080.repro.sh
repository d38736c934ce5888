# requires: kubectl ip
# timeout: 60
# Runs kubectl with no kubeconfig at all, so it falls back to http://localhost:8080 where nothing listens.
ip link set lo up 2>/dev/null || true
unset KUBECONFIG
kubectl get pods
