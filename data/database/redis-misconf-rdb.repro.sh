# requires: redis-server redis-cli
# Starts Redis with an RDB save rule whose target directory has been removed, makes a background save fail, then issues a write.
. "$REPRO_LIB/redis.sh"
mkdir -p ro; rstart --save "1 1" --dir "$PWD/ro"
rmdir ro
r SET a 1 >/dev/null; r BGSAVE >/dev/null; sleep 1
r SET user:1 alice
r CONFIG GET stop-writes-on-bgsave-error
rstop
