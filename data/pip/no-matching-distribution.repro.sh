# requires: python
# timeout: 90
# Asks a local, empty find-links folder for torch==1.13.1, then asks for a numpy version that the folder does not have.
set -u
. "$REPRO_LIB/python.sh"
pip_isolate
python -m venv venv
mkdir -p wheels
venv/bin/python -m pip install --no-index --find-links wheels torch==1.13.1
mkwheel wheels numpy 1.26.4
mkwheel wheels numpy 2.0.0
mkwheel wheels numpy 2.1.0 --tag cp313-cp313-win_amd64
venv/bin/python -m pip install --no-index --find-links wheels numpy==2.1.0
