# requires: node npm
# timeout: 60
# Installs a misspelled package name from a tiny local registry (data/_lib/node.sh) that answers 404 for it.
. "$REPRO_LIB/node.sh"
registry_start
echo '{"name":"app","version":"1.0.0"}' > package.json
npm install expresss --registry http://127.0.0.1:4873/
registry_stop
