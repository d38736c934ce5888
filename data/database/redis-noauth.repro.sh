# requires: redis-server redis-cli
# Starts a throwaway Redis with requirepass on a Unix socket and sends commands without authenticating, then with a wrong password.
. "$REPRO_LIB/redis.sh"
rstart --requirepass s3cret
r GET session:42
r -a wrong --no-auth-warning GET session:42
r --user default --pass wrong --no-auth-warning GET session:42
rstop -a s3cret
