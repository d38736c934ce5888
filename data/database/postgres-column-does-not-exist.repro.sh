# requires: initdb pg_ctl psql runuser
# Queries with a string literal written in double quotes and with an unquoted mixed-case column name (English, then zh_CN).
. "$REPRO_LIB/postgres.sh"
pgstart
psql -q -c 'CREATE TABLE users (id int, name text, "createdAt" timestamptz)'
psql -c 'SELECT * FROM users WHERE name = "alice"'
psql -c 'SELECT createdAt FROM users'
LC_ALL=zh_CN.UTF-8 LANG=zh_CN.UTF-8 psql -q -c "SET lc_messages TO 'zh_CN.UTF-8'" -c 'SELECT * FROM users WHERE name = "alice"'
pgstop
