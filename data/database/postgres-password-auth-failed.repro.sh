# requires: initdb pg_ctl psql runuser
# Starts a throwaway PostgreSQL 15 with scram-sha-256 in pg_hba.conf, then logs in with a wrong password and with none (English, then zh_CN).
. "$REPRO_LIB/postgres.sh"
pgstart
psql -q -c "ALTER ROLE postgres PASSWORD 'secret'" -c 'CREATE ROLE app LOGIN' 
sed -i 's/trust$/scram-sha-256/' "$D/data/pg_hba.conf"; psql -qAt -c 'SELECT pg_reload_conf()' >/dev/null
PGPASSWORD=wrong psql -c 'SELECT 1'
PGPASSWORD=anything psql -U app -c 'SELECT 1'
psql -w -c 'SELECT 1'
pgstop; pgstart -c lc_messages=zh_CN.UTF-8
PGPASSWORD=wrong LC_ALL=zh_CN.UTF-8 LANG=zh_CN.UTF-8 psql -c 'SELECT 1'
pgstop
