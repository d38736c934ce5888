# requires: initdb pg_ctl psql runuser
# Runs a statement that fails inside a transaction block and then keeps issuing statements in the same transaction (English, then zh_CN).
. "$REPRO_LIB/postgres.sh"
pgstart
psql -q -c 'CREATE TABLE t (id int PRIMARY KEY)'
psql -q <<'SQL'
BEGIN;
INSERT INTO t VALUES (1);
INSERT INTO t VALUES (1);
SELECT count(*) FROM t;
ROLLBACK;
SQL
LC_ALL=zh_CN.UTF-8 LANG=zh_CN.UTF-8 psql -q <<'SQL'
SET lc_messages TO 'zh_CN.UTF-8';
BEGIN;
SELECT 1/0;
SELECT 1;
ROLLBACK;
SQL
pgstop
