# requires: python
# timeout: 90
# Local wheels: pandas 2.2.2 needs numpy>=1.22.4, then pip is asked for pandas==2.2.2 together with numpy==1.21.0.
set -u
. "$REPRO_LIB/python.sh"
pip_isolate
python -m venv venv
mkdir -p wheels
mkwheel wheels pandas 2.2.2 'numpy>=1.22.4'
mkwheel wheels numpy 1.21.0
mkwheel wheels numpy 1.26.4
venv/bin/python -m pip install --no-index --find-links wheels pandas==2.2.2 numpy==1.21.0
