# requires: node
# timeout: 30
# Calls the built-in fetch() against a local port where nothing is listening.
# The loopback interface may be down in a fresh network namespace: bring it up when we can.
ip link set lo up 2>/dev/null || true
cat > client.mjs <<'JS'
const res = await fetch('http://127.0.0.1:8080/api/users');
console.log(await res.json());
JS
node client.mjs
