# requires: bash rm
# Expands 200000 file names onto one rm command line, past the kernel's argument size limit.
set -u
. "$REPRO_LIB/shell.sh"
getconf ARG_MAX
ibash 'rm -f file{1..200000}.log'
LC_ALL=zh_CN.UTF-8 ibash 'rm -f file{1..200000}.log'
