# requires: node
# timeout: 30
# Opens an http.get() connection to a local port where no server is listening.
# The loopback interface may be down in a fresh network namespace: bring it up when we can.
ip link set lo up 2>/dev/null || true
node -e "require('http').get('http://127.0.0.1:5432/', (res) => res.resume())"
# The IPv6 loopback, as when localhost resolves to ::1 and the server listens on IPv4 only.
node -e "require('http').get('http://[::1]:5432/', (res) => res.resume())"
