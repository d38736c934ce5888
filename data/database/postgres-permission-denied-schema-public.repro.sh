# requires: initdb pg_ctl psql runuser
# On PostgreSQL 15, where public no longer has CREATE on schema public, an ordinary role tries to create a table (English, then zh_CN).
. "$REPRO_LIB/postgres.sh"
pgstart
psql -q -c 'CREATE ROLE app LOGIN' -c 'CREATE DATABASE appdb'
psql -U app -d appdb -c 'CREATE TABLE t (id int)'
pgstop; pgstart -c lc_messages=zh_CN.UTF-8
LC_ALL=zh_CN.UTF-8 LANG=zh_CN.UTF-8 psql -U app -d appdb -c 'CREATE TABLE t (id int)'
pgstop
