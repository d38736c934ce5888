# requires: mariadb-install-db mariadbd mariadb mariadb-admin
# Inserts a string longer than a VARCHAR(10) column under the default strict sql_mode (English, then zh_CN).
. "$REPRO_LIB/mariadb.sh"
mystart
my -e 'CREATE DATABASE app; CREATE TABLE app.users (id INT PRIMARY KEY, name VARCHAR(10))'
my app -e "INSERT INTO users VALUES (1, 'Bartholomew Jr.')"
my app -e "SET lc_messages = 'zh_CN'; INSERT INTO users VALUES (1, 'Bartholomew Jr.')"
mystop
