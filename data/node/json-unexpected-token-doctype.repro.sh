# requires: node
# timeout: 30
# Serves an HTML page from a local server and parses the fetch() response as JSON.
# The loopback interface may be down in a fresh network namespace: bring it up when we can.
ip link set lo up 2>/dev/null || true
cat > app.mjs <<'JS'
import http from 'node:http';
const server = http.createServer((req, res) => {
  res.writeHead(404, { 'content-type': 'text/html' });
  res.end('<!DOCTYPE html><html><body>Not Found</body></html>');
});
server.listen(0, '127.0.0.1', async () => {
  const { port } = server.address();
  try {
    const res = await fetch(`http://127.0.0.1:${port}/api/users`);
    const users = await res.json();
    console.log(users);
  } finally {
    server.close();
  }
});
JS
node app.mjs
