# requires: mariadb-install-db mariadbd mariadb mariadb-admin
# Creates utf8mb4 keys wider than InnoDB's limits: a UNIQUE key under ROW_FORMAT=COMPACT (767-byte column prefix) and a PRIMARY KEY under the default DYNAMIC format (3072-byte key), then the latter in zh_CN.
. "$REPRO_LIB/mariadb.sh"
mystart
my -e 'CREATE DATABASE app'
my app -e 'CREATE TABLE users (email VARCHAR(255) CHARACTER SET utf8mb4, UNIQUE KEY (email)) ENGINE=InnoDB ROW_FORMAT=COMPACT'
my app -e 'CREATE TABLE tags (name VARCHAR(1000) CHARACTER SET utf8mb4 PRIMARY KEY) ENGINE=InnoDB'
my app -e "SET lc_messages = 'zh_CN'; CREATE TABLE tags (name VARCHAR(1000) CHARACTER SET utf8mb4 PRIMARY KEY) ENGINE=InnoDB"
mystop
