# requires: initdb pg_ctl psql runuser
# Starts a throwaway PostgreSQL 15 on a Unix socket and connects as a role that was never created (English, then zh_CN server messages).
. "$REPRO_LIB/postgres.sh"
pgstart
psql -U app -c "SELECT 1"
PGUSER= psql -c "SELECT 1"
psql -c 'SELECT 1' -U postgres -c "SET ROLE app"
pgstop; pgstart -c lc_messages=zh_CN.UTF-8
LC_ALL=zh_CN.UTF-8 LANG=zh_CN.UTF-8 psql -U app -c 'SELECT 1'
pgstop
