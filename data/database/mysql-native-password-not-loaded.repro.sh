# requires: mariadb-install-db mariadbd mariadb mariadb-admin
# Starts a throwaway MariaDB and creates an account with the ed25519 authentication plugin before that plugin is installed.
. "$REPRO_LIB/mariadb.sh"
mystart
my -e "CREATE USER 'ed'@'localhost' IDENTIFIED VIA ed25519 USING PASSWORD('x')"
mystop
