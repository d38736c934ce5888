# requires: bash
# Runs sudo in an interactive bash and in a script on a system (like a slim container) where sudo is not installed.
set -u
. "$REPRO_LIB/shell.sh"
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
# if this machine has sudo, hide it: a PATH holding only bash and grep
if type -P sudo >/dev/null; then mkdir -p bin; ln -sf "$(type -P bash)" bin/bash; ln -sf "$(type -P grep)" bin/grep; export PATH=$PWD/bin; fi
ibash 'sudo apt-get update'
printf 'sudo apt-get update\n' > setup.sh
bash setup.sh
LC_ALL=zh_CN.UTF-8 ibash 'sudo apt-get update'
