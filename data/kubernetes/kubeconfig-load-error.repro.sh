# requires: kubectl
# timeout: 30
# Writes two hand-edited kubeconfigs with YAML mistakes (a missing colon, a tab used for indentation) and runs kubectl with each.
mkdir -p .kube
printf 'apiVersion: v1\nkind: Config\nclusters:\n- name: dev\n  cluster:\n    server: https://127.0.0.1:6443\n  certificate-authority-data LS0tLS1CRUdJTi\n' > .kube/config
KUBECONFIG=.kube/config kubectl get pods
KUBECONFIG=.kube/config kubectl config use-context dev
printf 'apiVersion: v1\nkind: Config\nclusters:\n- name: dev\n\tcluster:\n    server: https://127.0.0.1:6443\n' > .kube/config
KUBECONFIG=.kube/config kubectl get pods
