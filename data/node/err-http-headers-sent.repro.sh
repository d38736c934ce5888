# requires: node
# timeout: 30
# A request handler sends the response and then tries to set a header, as a missing `return` after res.send() does.
ip link set lo up 2>/dev/null || true
cat > app.js <<'JS'
const http = require('http');
const server = http.createServer((req, res) => {
  if (!req.headers.authorization) {
    res.statusCode = 401;
    res.end('login required');          // missing "return" here
  }
  res.setHeader('content-type', 'application/json');
  res.end(JSON.stringify({ ok: true }));
});
server.listen(0, '127.0.0.1', () => {
  http.get(`http://127.0.0.1:${server.address().port}/`, (r) => r.resume());
});
JS
node app.js
