# requires: node
# timeout: 30
# Requires a package that is not installed, then a relative file that does not exist (CommonJS).
echo '{"name":"app","version":"1.0.0"}' > package.json
echo "const express = require('express');" > server.js
node server.js
echo "const config = require('./config/settings');" > worker.js
node worker.js
