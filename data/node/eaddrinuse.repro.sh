# requires: node
# timeout: 30
# Starts an HTTP server on port 3000, then a second one on the same port, which fails with EADDRINUSE.
node -e "
const http = require('http');
http.createServer().listen(3000, () => {
  http.createServer().listen(3000);
});
setTimeout(() => process.exit(0), 3000);
"
