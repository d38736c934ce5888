# requires: python
# timeout: 120
# A local sdist (stand-in for an old package) whose build backend imports numpy while preparing metadata; numpy is not in the isolated build environment.
set -u
. "$REPRO_LIB/python.sh"
pip_isolate
python -m venv venv
mkdir -p wheels
mkdir -p src/pycocotools-2.0.0
cd src/pycocotools-2.0.0
printf '[build-system]\nrequires = []\nbuild-backend = "backend"\nbackend-path = ["."]\n' > pyproject.toml
cat > backend.py <<'PY'
def get_requires_for_build_wheel(config_settings=None):
    return []

def prepare_metadata_for_build_wheel(metadata_directory, config_settings=None):
    import numpy   # undeclared build dependency, like setup.py files that do "import numpy" at the top
    raise SystemExit("unreachable")

def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    raise SystemExit("unreachable")
PY
printf 'Metadata-Version: 2.1\nName: pycocotools\nVersion: 2.0.0\n' > PKG-INFO
cd .. && tar czf pycocotools-2.0.0.tar.gz pycocotools-2.0.0 && cd ..
venv/bin/python -m pip install --no-index --find-links src pycocotools==2.0.0
