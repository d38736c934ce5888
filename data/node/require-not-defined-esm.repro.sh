# requires: node
# timeout: 30
# Calls require() in a .js file of a package with "type": "module".
echo '{"name":"app","version":"1.0.0","type":"module"}' > package.json
echo "const express = require('express');" > server.js
node server.js
