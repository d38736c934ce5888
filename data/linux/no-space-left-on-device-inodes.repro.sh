# requires: unshare mount df touch
# Mounts a tmpfs with plenty of bytes but only 16 inodes, fills the inodes with empty files, and shows df vs df -i.
set -u
mkdir -p cache
unshare -m sh -c '
mount -t tmpfs -o size=64m,nr_inodes=16 tmpfs cache || exit 1
i=0; while [ $i -lt 20 ]; do i=$((i+1)); touch cache/sess_$i 2>&1 | tail -n 1 | grep -v "^$" ; done | tail -n 2
LC_ALL=zh_CN.UTF-8 touch cache/sess_99
df -h cache | tail -n 1
df -i cache | tail -n 1
'
