# requires: node runuser
# timeout: 30
# As an unprivileged user (nobody), starts an HTTP server on port 80, below the privileged-port limit.
chmod 755 .
echo "require('http').createServer((req, res) => res.end('ok')).listen(80);" > server.js
runuser -u nobody -- node server.js
