# requires: mariadb-install-db mariadbd mariadb mariadb-admin
# Starts a throwaway MariaDB and logs in with a wrong password and with no password for accounts that have one (English, then zh_CN server messages).
. "$REPRO_LIB/mariadb.sh"
mystart
my -e "CREATE USER 'app'@'localhost' IDENTIFIED BY 'app-secret'; ALTER USER 'root'@'localhost' IDENTIFIED BY 'root-secret'"
my -pwrong -e 'SELECT 1'
mariadb --no-defaults -S "$M/m.sock" -u app -e 'SELECT 1'
my -proot-secret -e "SET GLOBAL lc_messages = 'zh_CN'"
my -pwrong -e 'SELECT 1'
my -proot-secret -e "SET GLOBAL lc_messages = 'en_US'; SHUTDOWN"; wait
