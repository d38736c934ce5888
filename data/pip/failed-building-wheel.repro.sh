# requires: python gcc
# timeout: 120
# A local sdist (stand-in for mysqlclient) whose in-tree PEP 517 backend compiles a C file that includes mysql.h, which is not installed.
set -u
. "$REPRO_LIB/python.sh"
pip_isolate
python -m venv venv
mkdir -p wheels
mkdir -p src/mysqlclient-2.2.4
cd src/mysqlclient-2.2.4
cat > pyproject.toml <<'TOML'
[build-system]
requires = []
build-backend = "backend"
backend-path = ["."]
TOML
cat > _mysql.c <<'C'
#include <Python.h>
#include <mysql.h>
C
cat > backend.py <<'PY'
import subprocess, sysconfig

def get_requires_for_build_wheel(config_settings=None):
    return []

def prepare_metadata_for_build_wheel(metadata_directory, config_settings=None):
    import os
    info = os.path.join(metadata_directory, "mysqlclient-2.2.4.dist-info")
    os.makedirs(info)
    with open(os.path.join(info, "METADATA"), "w") as f:
        f.write("Metadata-Version: 2.1\nName: mysqlclient\nVersion: 2.2.4\n")
    return "mysqlclient-2.2.4.dist-info"

def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    cmd = ["gcc", "-c", "-fPIC", "-I" + sysconfig.get_paths()["include"], "_mysql.c", "-o", "_mysql.o"]
    print(" ".join(cmd), flush=True)
    subprocess.run(cmd, check=True)
    raise SystemExit("unreachable")
PY
printf 'Metadata-Version: 2.1\nName: mysqlclient\nVersion: 2.2.4\n' > PKG-INFO
cd .. && tar czf mysqlclient-2.2.4.tar.gz mysqlclient-2.2.4 && cd ..
venv/bin/python -m pip install --no-index --find-links src mysqlclient==2.2.4
