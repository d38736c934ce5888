# requires: node npm
# timeout: 60
# Asks a tiny local registry (data/_lib/node.sh) for left-pad@^2.0.0 when only 1.3.0 is published.
. "$REPRO_LIB/node.sh"
registry_start
echo '{"name":"app","version":"1.0.0"}' > package.json
npm install left-pad@^2.0.0 --registry http://127.0.0.1:4873/
registry_stop
