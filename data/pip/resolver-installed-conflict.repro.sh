# requires: python
# timeout: 90
# Local wheels: tensorflow 2.15.0 needs numpy<2; installing numpy==2.0.0 afterwards breaks it.
set -u
. "$REPRO_LIB/python.sh"
pip_isolate
python -m venv venv
mkdir -p wheels
mkwheel wheels tensorflow 2.15.0 'numpy<2.0.0,>=1.23.5'
mkwheel wheels numpy 1.26.4
mkwheel wheels numpy 2.0.0
venv/bin/python -m pip install --no-index --find-links wheels tensorflow==2.15.0
venv/bin/python -m pip install --no-index --find-links wheels numpy==2.0.0
venv/bin/python -m pip check
mkwheel wheels numpy 2.0.1
venv/bin/python -m pip install --no-index --find-links wheels --use-deprecated=legacy-resolver numpy==2.0.1
