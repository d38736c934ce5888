# requires: psql ip
# Connects with psql over TCP to localhost:5432 where nothing listens (loopback brought up in the private network namespace), in English and zh_CN.
ip link set lo up 2>/dev/null
psql -h localhost -p 5432 -U postgres -c 'SELECT 1'
psql -h ::1 -p 5432 -U postgres -c 'SELECT 1'
LC_ALL=zh_CN.UTF-8 LANG=zh_CN.UTF-8 psql -h localhost -p 5432 -U postgres -c 'SELECT 1'
