# requires: python gcc
# timeout: 120
# Compiles a C extension against the NumPy 1.26.4 headers and imports it under the venv's NumPy 2.x.
set -u
files=/opt/pypi/files
np1=$(ls $files/numpy-1.26.4-cp311-*.whl 2>/dev/null | head -n 1)
inc=$(python -c 'import sysconfig; print(sysconfig.get_paths()["include"])')
ext=$(python -c 'import sysconfig; print(sysconfig.get_config_var("EXT_SUFFIX"))')
python -c 'import numpy; print("installed numpy", numpy.__version__)'
if [ -n "$np1" ]; then
  python -c "import zipfile, sys; zipfile.ZipFile(sys.argv[1]).extractall('np1')" "$np1"
  cat > fastops.c <<'C'
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <numpy/arrayobject.h>
static struct PyModuleDef mod = {PyModuleDef_HEAD_INIT, "fastops", NULL, -1, NULL};
PyMODINIT_FUNC PyInit_fastops(void) { import_array(); return PyModule_Create(&mod); }
C
  gcc -shared -fPIC -O0 -w -I"$inc" -Inp1/numpy/core/include fastops.c -o fastops$ext
  python -c 'import fastops' 2>&1 | grep -v '^  File\|^    '
else
  # no NumPy 1.x wheel here: take the same path a 1.x-compiled module takes (import_array() fetches _ARRAY_API)
  python -c 'import numpy.core._multiarray_umath as m; m._ARRAY_API' 2>&1 | grep -v '^  File\|^    '
fi
