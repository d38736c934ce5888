# requires: make
# Runs make on Makefiles whose recipe lines are indented with spaces (8, then 4) instead of a tab.
set -u
mkdir -p eight four
printf 'all:\n        echo building\n' > eight/Makefile
printf 'all:\n    echo building\n' > four/Makefile
make -C eight --no-print-directory
LC_ALL=zh_CN.UTF-8 make -C eight --no-print-directory
make -C four --no-print-directory
LC_ALL=zh_CN.UTF-8 make -C four --no-print-directory
