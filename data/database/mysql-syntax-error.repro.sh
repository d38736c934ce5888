# requires: mariadb-install-db mariadbd mariadb mariadb-admin
# Starts a throwaway MariaDB on a Unix socket and sends statements with a typo, a reserved word as a column name and MySQL-5.7 GRANT syntax (English, then zh_CN server messages).
. "$REPRO_LIB/mariadb.sh"
mystart
my -e 'CREATE DATABASE app'
my app -e 'SELEC * FROM users'
my app -e 'CREATE TABLE orders (id INT PRIMARY KEY, order INT)'
my app -e "SELECT * FROM t WHERE name = 'it's'"
my app -e "SET lc_messages = 'zh_CN'; SELEC 1"
mystop
