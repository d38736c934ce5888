# requires: node unshare
# timeout: 30
# require()s an ESM-only package (a local stand-in for node-fetch 3) with require(esm) switched off, as on Node < 20.19 / 22.12.
# in_app (data/_lib/node.sh) runs a command with this folder mounted at /home/dev/app, so paths are stable.
. "$REPRO_LIB/node.sh"
mkdir -p node_modules/node-fetch/src
echo '{"name":"node-fetch","version":"3.3.2","type":"module","main":"./src/index.js"}' > node_modules/node-fetch/package.json
echo 'export default function fetch() {}' > node_modules/node-fetch/src/index.js
echo '{"name":"app","version":"1.0.0"}' > package.json
echo "const fetch = require('node-fetch');" > index.js
in_app node --no-experimental-require-module index.js
# Node 20.19+/22.12+ load it by default; a module with top-level await still cannot be require()d.
mkdir -p node_modules/tla-lib
echo '{"name":"tla-lib","version":"1.0.0","type":"module","main":"./index.js"}' > node_modules/tla-lib/package.json
echo 'export const config = await Promise.resolve({});' > node_modules/tla-lib/index.js
echo "const { config } = require('tla-lib');" > tla.js
in_app node tla.js
