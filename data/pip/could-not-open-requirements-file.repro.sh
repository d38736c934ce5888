# requires: python
# timeout: 60
# Runs pip install -r with a requirements file name that does not exist in the current directory.
set -u
. "$REPRO_LIB/python.sh"
pip_isolate
python -m venv venv
mkdir -p project && printf 'requests\n' > project/requirements.txt
venv/bin/python -m pip install --no-index -r requirements.txt
