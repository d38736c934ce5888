# requires: python
# timeout: 60
# Feeds pip a requirement written with a single "=" on the command line and inside a requirements file.
set -u
. "$REPRO_LIB/python.sh"
pip_isolate
python -m venv venv
venv/bin/python -m pip install --no-index 'numpy=1.26.4'
printf 'requests>=2.31\nnumpy=1.26.4\n' > requirements.txt
venv/bin/python -m pip install --no-index -r requirements.txt
