# requires: python
# timeout: 90
# Installs a local wheel with a console script (and one with two scripts) with --user, whose ~/.local/bin is not on PATH.
set -u
. "$REPRO_LIB/python.sh"
pip_isolate
mkdir -p wheels
mkwheel wheels httpie 3.2.4 --script http
mkwheel wheels black 24.4.2 --script black --script blackd
# --user installs (allowed in a venv that sees system site-packages) put scripts in ~/.local/bin, which is not on PATH here
python -m venv --system-site-packages userenv
userenv/bin/python -m pip install --no-index --find-links wheels --user httpie==3.2.4
userenv/bin/python -m pip install --no-index --find-links wheels --user black==24.4.2
