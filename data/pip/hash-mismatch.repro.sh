# requires: python
# timeout: 90
# Installs a local wheel from a requirements file whose --hash does not match the file, and a requirement without a hash under --require-hashes.
set -u
. "$REPRO_LIB/python.sh"
pip_isolate
python -m venv venv
mkdir -p wheels
mkwheel wheels requests 2.32.3
mkwheel wheels idna 3.7
printf 'requests==2.32.3 --hash=sha256:70761cfe03c773ceb22aa2f671b4757976145175cdfca038c02654d061d6dcc6\n' > requirements.txt
venv/bin/python -m pip install --no-index --find-links wheels -r requirements.txt
printf 'idna==3.7\n' > requirements2.txt
venv/bin/python -m pip install --no-index --find-links wheels --require-hashes -r requirements2.txt
