# requires: unshare mount touch mkdir python
# Mounts a read-only tmpfs (as a file system remounted read-only after errors, or a container's read-only root) and tries to write to it.
set -u
mkdir -p data
unshare -m sh -c '
mount -t tmpfs -o ro tmpfs data || exit 1
touch data/app.log
LC_ALL=zh_CN.UTF-8 touch data/app.log
mkdir data/cache
python -c "open(\"data/app.log\", \"w\")" 2>&1 | tail -n 1
'
