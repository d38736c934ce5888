# requires: redis-server redis-cli
# Stores a string, then runs list and hash commands against that key.
. "$REPRO_LIB/redis.sh"
rstart
r SET user:1 alice >/dev/null
r LPUSH user:1 x
r HGET user:1 name
r TYPE user:1
rstop
