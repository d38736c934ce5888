# requires: node unshare
# timeout: 30
# Requires and imports a deep path of a local package whose "exports" map only exposes ".".
# in_app (data/_lib/node.sh) runs a command with this folder mounted at /home/dev/app, so paths are stable.
. "$REPRO_LIB/node.sh"
mkdir -p node_modules/uuid/dist
echo '{"name":"uuid","version":"9.0.1","exports":{".":{"import":"./dist/index.mjs","require":"./dist/index.js"}}}' > node_modules/uuid/package.json
echo 'exports.v4 = () => "x";' > node_modules/uuid/dist/index.js
echo 'export const v4 = () => "x";' > node_modules/uuid/dist/index.mjs
echo 'exports.v4 = () => "x";' > node_modules/uuid/dist/v4.js
echo "const v4 = require('uuid/dist/v4');" > a.cjs
in_app node a.cjs
echo "import v4 from 'uuid/dist/v4.js';" > b.mjs
in_app node b.mjs
# A package whose exports only offer an "import" condition, loaded with require().
mkdir -p node_modules/esm-only
echo '{"name":"esm-only","version":"2.0.0","exports":{".":{"import":"./index.mjs"}}}' > node_modules/esm-only/package.json
echo 'export default 1;' > node_modules/esm-only/index.mjs
echo "const lib = require('esm-only');" > c.cjs
in_app node c.cjs
