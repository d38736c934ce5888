# requires: bash env
# Saves two scripts with Windows (CRLF) line endings and runs them, in the C and zh_CN locales.
set -u
. "$REPRO_LIB/shell.sh"
printf '#!/bin/bash\r\necho deployed\r\n' > run.sh
printf '#!/usr/bin/env bash\r\necho deployed\r\n' > start.sh
chmod +x run.sh start.sh
bash --version | head -1
ibash ./run.sh
LC_ALL=zh_CN.UTF-8 ibash ./run.sh
./start.sh
LC_ALL=zh_CN.UTF-8 ./start.sh
