# requires: python
# timeout: 120
# Runs "python -m pip" in a venv created without pip, then restores pip with ensurepip.
python -m venv --without-pip venv
venv/bin/python -m pip install requests
venv/bin/python -m ensurepip --upgrade 2>&1 | tail -n 1
venv/bin/python -m pip --version
