# requires: initdb pg_ctl psql runuser
# Starts PostgreSQL 15 with max_connections=3, fills the slots with sleeping sessions and opens one more, as superuser and as an ordinary role (English, then zh_CN).
. "$REPRO_LIB/postgres.sh"
pgstart
psql -q -c 'CREATE ROLE app LOGIN'
pgstop; pgstart -c max_connections=3 -c superuser_reserved_connections=1
hold() { for i in $(seq "$1"); do psql -q -U "$2" -c 'SELECT pg_sleep(3)' >/dev/null 2>&1 & done; sleep 0.7; }
hold 2 app; psql -U app -c 'SELECT 1'; wait
hold 3 postgres; psql -c 'SELECT 1'; wait
pgstop; pgstart -c max_connections=3 -c superuser_reserved_connections=1 -c lc_messages=zh_CN.UTF-8
hold 3 postgres; LC_ALL=zh_CN.UTF-8 LANG=zh_CN.UTF-8 psql -c 'SELECT 1'; wait
pgstop
