# requires: python runuser /usr/bin/python3
# timeout: 90
# Creates a venv as root, then runs its pip as the unprivileged user nobody, which cannot write to site-packages.
set -u
. "$REPRO_LIB/python.sh"
pip_isolate
# the unprivileged user cannot reach an interpreter under /root, so the venv is built from the system Python
/usr/bin/python3 -m venv venv
mkdir -p wheels
mkwheel wheels mylib 1.0.0
chmod -R a+rX .
runuser -u nobody -- env HOME=/nonexistent PIP_NO_CACHE_DIR=1 PIP_CONFIG_FILE=/dev/null venv/bin/python -m pip install --no-index --find-links wheels mylib==1.0.0
