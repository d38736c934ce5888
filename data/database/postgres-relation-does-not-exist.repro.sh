# requires: initdb pg_ctl psql runuser
# Creates a table with a quoted mixed-case name and in another schema, then queries it the usual wrong ways (English, then zh_CN).
. "$REPRO_LIB/postgres.sh"
pgstart
psql -q -c 'CREATE TABLE "Users" (id int)' -c 'CREATE SCHEMA app' -c 'CREATE TABLE app.orders (id int)'
psql -c 'SELECT * FROM Users'
psql -c 'SELECT * FROM orders'
psql -q -c "SET lc_messages TO 'zh_CN.UTF-8'" -c 'SELECT * FROM Users' 2>&1 | cat
LC_ALL=zh_CN.UTF-8 LANG=zh_CN.UTF-8 psql -q -c "SET lc_messages TO 'zh_CN.UTF-8'" -c 'SELECT * FROM Users'
pgstop
