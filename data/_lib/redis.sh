# Sourced by reproductions (". "$REPRO_LIB/redis.sh""): a throwaway Redis server in the
# working folder, on a Unix socket only (./r.sock, no TCP port).
#   rstart [option ...]        start redis-server (extra server options) and wait for its socket
#   r [redis-cli argument ...] redis-cli connected to it
#   rstop [redis-cli option ...]  shut it down without saving (pass -a PASSWORD when one is set)
set -u
rstart() {
  redis-server --port 0 --unixsocket "$PWD/r.sock" --daemonize yes --pidfile "$PWD/r.pid" \
    --dir "$PWD" --logfile "$PWD/r.log" "$@"
  for _ in $(seq 50); do [ -S "$PWD/r.sock" ] && break; sleep 0.1; done
}
r() { redis-cli -s "$PWD/r.sock" "$@"; }
rstop() { r --no-auth-warning "$@" shutdown nosave >/dev/null 2>&1 || true; }
