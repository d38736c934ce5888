# requires: bash
# Creates a script without the execute bit (as after a download, unzip or git checkout without +x) and runs it.
set -u
. "$REPRO_LIB/shell.sh"
printf '#!/bin/sh\necho deploying\n' > deploy.sh
ls -l deploy.sh
ibash ./deploy.sh
LC_ALL=zh_CN.UTF-8 ibash ./deploy.sh
