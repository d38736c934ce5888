# requires: mariadb-install-db mariadbd mariadb mariadb-admin
# One session holds a row lock in an open transaction while a second session with innodb_lock_wait_timeout=1 tries to update the same row (English, then zh_CN).
. "$REPRO_LIB/mariadb.sh"
mystart
my -e 'CREATE DATABASE app; CREATE TABLE app.jobs (id INT PRIMARY KEY, state VARCHAR(20)) ENGINE=InnoDB; INSERT INTO app.jobs VALUES (1, "new")'
my app -e "BEGIN; UPDATE jobs SET state = 'running' WHERE id = 1; SELECT SLEEP(4); COMMIT" >/dev/null &
sleep 1
my app -e "SET innodb_lock_wait_timeout = 1; UPDATE jobs SET state = 'done' WHERE id = 1"
my app -e "SET lc_messages = 'zh_CN'; SET innodb_lock_wait_timeout = 1; UPDATE jobs SET state = 'done' WHERE id = 1"
wait %2 2>/dev/null; sleep 2.5
mystop
