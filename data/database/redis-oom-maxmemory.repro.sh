# requires: redis-server redis-cli
# Starts Redis with maxmemory 2mb and the default noeviction policy, then writes until the limit is hit.
. "$REPRO_LIB/redis.sh"
rstart --maxmemory 2mb --maxmemory-policy noeviction
v=$(head -c 10000 /dev/zero | tr '\0' x)
for i in $(seq 400); do out=$(r SET "cache:$i" "$v"); [ "$out" = OK ] || { echo "$out"; break; }; done
r CONFIG GET maxmemory-policy
rstop
