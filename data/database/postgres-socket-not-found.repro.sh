# requires: psql unshare mount
# Runs psql with no host, so libpq uses the Debian default socket /var/run/postgresql/.s.PGSQL.5432; an empty tmpfs over /run/postgresql in a private mount namespace guarantees no server is there (English, then zh_CN).
unset PGHOST PGPORT
unshare --mount --propagation private bash -c '
[ -d /run/postgresql ] && mount -t tmpfs -o size=64k tmpfs /run/postgresql
psql -U postgres -c "SELECT 1"
LC_ALL=zh_CN.UTF-8 LANG=zh_CN.UTF-8 psql -U postgres -c "SELECT 1"'
