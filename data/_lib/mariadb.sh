# Sourced by reproductions (". "$REPRO_LIB/mariadb.sh""): a throwaway MariaDB server in ./my,
# on a Unix socket only, with password authentication for root.
#   mystart [option ...]   start mariadbd (extra server options) and wait for its socket
#   mystop                 shut it down
#   my [client option ...] the mariadb client, connected as root
set -u
M="$PWD/my"
mkdir -p "$M"
mariadb-install-db --no-defaults --datadir="$M/data" --auth-root-authentication-method=normal >/dev/null 2>&1
mystart() {
  mariadbd --no-defaults --datadir="$M/data" --socket="$M/m.sock" --skip-networking --user=root \
    --log-error="$M/err.log" "$@" &
  for _ in $(seq 100); do [ -S "$M/m.sock" ] && break; sleep 0.1; done
}
mystop() { mariadb-admin --no-defaults -S "$M/m.sock" -u root shutdown; wait; }
my() { mariadb --no-defaults --skip-line-numbers -S "$M/m.sock" -u root "$@"; }
