# requires: kubectl python ip
# timeout: 60
# Serves a minimal API discovery document (core/v1 pods, apps/v1 deployments, no CRDs) on 127.0.0.1 and asks kubectl for resource types it does not list.
. "$REPRO_LIB/kube.sh"
kube_discovery_server 16080
kube_use_server http://127.0.0.1:16080
kubectl get certificates
kubectl get certificates.cert-manager.io
kill %1
