# requires: python
# timeout: 90
# Local wheels whose Requires-Python excludes the running interpreter: installed by file name, and by version from a local index that publishes Requires-Python.
set -u
. "$REPRO_LIB/python.sh"
pip_isolate
python -m venv venv
mkdir -p wheels
mkwheel wheels mylib 2.0.0 --requires-python '>=3.12'
venv/bin/python -m pip install --no-index wheels/mylib-2.0.0-py3-none-any.whl
# a local PEP 503 index that publishes Requires-Python (data-requires-python), as PyPI does
mkdir -p simple/mylib
printf '<html><body><a href="../../wheels/mylib-2.0.0-py3-none-any.whl" data-requires-python="&gt;=3.12">mylib-2.0.0-py3-none-any.whl</a></body></html>\n' > simple/mylib/index.html
venv/bin/python -m pip install --index-url "file://$PWD/simple" 'mylib>=2'
