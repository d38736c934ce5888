# requires: mariadb unshare mount
# Runs the MariaDB client against the Debian default socket /var/run/mysqld/mysqld.sock and against its compiled-in default socket; an empty tmpfs over /run/mysqld in a private mount namespace guarantees no server is listening there.
unshare --mount --propagation private bash -c '
[ -d /run/mysqld ] && mount -t tmpfs -o size=64k tmpfs /run/mysqld
mariadb --no-defaults -u root -S /var/run/mysqld/mysqld.sock -e "SELECT 1"
mariadb --no-defaults -u root -e "SELECT 1"'
