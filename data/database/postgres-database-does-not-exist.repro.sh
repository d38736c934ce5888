# requires: initdb pg_ctl psql runuser
# Starts a throwaway PostgreSQL 15 and connects to a database that does not exist, including the implicit database named after the user (English, then zh_CN).
. "$REPRO_LIB/postgres.sh"
pgstart
psql -c 'CREATE ROLE app LOGIN'
psql -d appdb -c 'SELECT 1'
psql -U app -d '' -c 'SELECT 1' </dev/null
PGDATABASE= psql -U app -c 'SELECT 1'
pgstop; pgstart -c lc_messages=zh_CN.UTF-8
LC_ALL=zh_CN.UTF-8 LANG=zh_CN.UTF-8 psql -d appdb -c 'SELECT 1'
pgstop
