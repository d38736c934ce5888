# requires: bash cp sleep
# Overwrites a program while it runs, and runs a program while a file descriptor still has it open for writing.
set -u
. "$REPRO_LIB/shell.sh"
cp "$(type -P sleep)" worker
./worker 5 &
sleep 0.5
cp "$(type -P true)" worker
LC_ALL=zh_CN.UTF-8 cp "$(type -P true)" worker
kill %1; wait 2>/dev/null
cp "$(type -P true)" tool
exec 3>>tool
ibash ./tool
LC_ALL=zh_CN.UTF-8 ibash ./tool
exec 3>&-
