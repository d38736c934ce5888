# requires: node unshare
# timeout: 30
# An ES module imports a local file without its .js extension, which the ESM resolver does not add.
# in_app (data/_lib/node.sh) runs a command with this folder mounted at /home/dev/app, so paths are stable.
. "$REPRO_LIB/node.sh"
echo '{"name":"app","version":"1.0.0","type":"module"}' > package.json
mkdir -p src
echo 'export const port = 3000;' > src/config.js
echo "import { port } from './config';" > src/index.js
in_app node src/index.js
# A bare package name that is not installed in node_modules.
echo "import express from 'express';" > src/server.js
in_app node src/server.js
