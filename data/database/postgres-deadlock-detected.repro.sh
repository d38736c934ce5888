# requires: initdb pg_ctl psql runuser
# Two sessions update the same two rows in opposite order so the deadlock detector aborts one of them (English, then zh_CN).
. "$REPRO_LIB/postgres.sh"
pgstart
psql -q -c 'CREATE TABLE accounts (id int PRIMARY KEY, balance int)' -c 'INSERT INTO accounts VALUES (1, 100), (2, 100)'
run() { # $1 first id, $2 second id, $3 extra SET
psql -q -v ON_ERROR_STOP=1 <<SQL
$3
SET deadlock_timeout = '200ms';
BEGIN;
UPDATE accounts SET balance = balance - 10 WHERE id = $1;
SELECT pg_sleep(1);
UPDATE accounts SET balance = balance + 10 WHERE id = $2;
COMMIT;
SQL
}
run 1 2 "" >/dev/null & sleep 0.3; run 2 1 "" >/dev/null; wait
run 1 2 "" >/dev/null & sleep 0.3; LC_ALL=zh_CN.UTF-8 LANG=zh_CN.UTF-8 run 2 1 "SET lc_messages TO 'zh_CN.UTF-8';" >/dev/null; wait
pgstop
