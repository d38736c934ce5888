# requires: mariadb-install-db mariadbd mariadb mariadb-admin runuser
# Gives MariaDB's root@localhost the authentication mariadb-install-db sets by default (an invalid password OR unix_socket), then connects as MariaDB user root from the OS account nobody (English, then zh_CN).
. "$REPRO_LIB/mariadb.sh"
mystart
chmod 755 "$PWD" "$M"
my -e "ALTER USER 'root'@'localhost' IDENTIFIED VIA mysql_native_password USING 'invalid' OR unix_socket"
runuser -u nobody -- mariadb --no-defaults -S "$M/m.sock" -u root -e 'SELECT 1'
runuser -u nobody -- mariadb --no-defaults -S "$M/m.sock" -u root -pSecret123 -e 'SELECT 1'
my -e "SET GLOBAL lc_messages = 'zh_CN'"
runuser -u nobody -- mariadb --no-defaults -S "$M/m.sock" -u root -e 'SELECT 1'
my -e "SET GLOBAL lc_messages = 'en_US'; SHOW CREATE USER 'root'@'localhost'"
mystop
