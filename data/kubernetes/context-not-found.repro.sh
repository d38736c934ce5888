# requires: kubectl
# timeout: 30
# Builds a kubeconfig that only has a "dev" context, then asks kubectl for a "prod" context.
export KUBECONFIG=$PWD/kubeconfig
kubectl config set-cluster dev --server=https://127.0.0.1:6443 >/dev/null
kubectl config set-credentials dev --token=dev-token >/dev/null
kubectl config set-context dev --cluster=dev --user=dev >/dev/null
kubectl config use-context dev >/dev/null
kubectl config use-context prod
kubectl --context prod get pods
