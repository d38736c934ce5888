# Sourced by the Node.js / npm reproductions (". "$REPRO_LIB/node.sh"").
#   in_app CMD [ARGS...]   run CMD with the current folder mounted at /home/dev/app (a private
#                          mount namespace, so printed paths are stable and the host is untouched);
#                          without unshare it runs CMD in place
#   registry_start         serve a tiny npm registry on 127.0.0.1:4873 (the Verdaccio default port)
#                          that knows only left-pad@1.3.0 and answers 404 for every other name
#   registry_stop          stop it
# It also sets quiet, offline-friendly npm settings with the cache inside the working folder.
export npm_config_update_notifier=false npm_config_fund=false npm_config_audit=false npm_config_cache="$PWD/.npm-cache"

in_app() {
  if unshare -m true 2>/dev/null; then
    unshare -m sh -c 'mount --make-rprivate / && mount -t tmpfs tmpfs /home && mkdir -p /home/dev/app && mount --bind "$0" /home/dev/app && cd /home/dev/app && exec "$@"' "$PWD" "$@"
  else
    "$@"
  fi
}

registry_start() {
  # The loopback interface may be down in a fresh network namespace: bring it up when we can.
  ip link set lo up 2>/dev/null || true
  cat > "$PWD/.registry.js" <<'JS'
const http = require("http");
const packument = { name: "left-pad", "dist-tags": { latest: "1.3.0" },
  versions: { "1.3.0": { name: "left-pad", version: "1.3.0",
    dist: { tarball: "http://127.0.0.1:4873/left-pad/-/left-pad-1.3.0.tgz" } } } };
http.createServer((req, res) => {
  if (req.url === "/left-pad") {
    res.writeHead(200, { "content-type": "application/json" });
    return res.end(JSON.stringify(packument));
  }
  res.writeHead(404, { "content-type": "application/json" });
  res.end(JSON.stringify({ error: "Not found" }));
}).listen(4873, "127.0.0.1", () => console.log("registry up"));
JS
  node "$PWD/.registry.js" &
  REGISTRY_PID=$!
  for _ in $(seq 1 50); do
    node -e 'require("net").connect(4873, "127.0.0.1").on("connect", () => process.exit(0)).on("error", () => process.exit(1))' && return 0
    sleep 0.1
  done
}

registry_stop() { kill "${REGISTRY_PID:-}" 2>/dev/null || true; }
