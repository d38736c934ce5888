# Sourced by reproductions (". "$REPRO_LIB/postgres.sh""): a throwaway PostgreSQL cluster in
# ./pg, on a Unix socket only, run as nobody because the server refuses to run as root.
#   pgstart [-c name=value ...]   start it (extra server options)
#   pgstop                        stop it
# psql and libpq programs then reach it through PGHOST/PGUSER/PGDATABASE.
set -u
chmod 755 "$PWD"
D="$PWD/pg"
mkdir -p "$D"
chown nobody "$D"
runuser -u nobody -- initdb -D "$D/data" -U postgres --auth=trust >/dev/null 2>&1
pgstart() { runuser -u nobody -- pg_ctl -D "$D/data" -o "-c listen_addresses='' -k $D $*" -l "$D/log" -w start >/dev/null; }
pgstop() { runuser -u nobody -- pg_ctl -D "$D/data" -m fast stop >/dev/null; }
export PGHOST="$D" PGUSER=postgres PGDATABASE=postgres
