# requires: gcc python unshare mount mknod
# timeout: 60
# Builds a tiny Python extension that links libGL.so.1 (as cv2 does), hides every libGL.so* like a slim image, and imports it.
set -u
. "$REPRO_LIB/shell.sh"
pyext_paths
mkdir -p stub site up wk
# a stand-in libGL.so.1 to link against (only its soname matters), removed before the import
echo 'int glGetError(void) { return 0; }' > stub/gl.c
gcc -shared -fPIC -Wl,-soname,libGL.so.1 -o stub/libGL.so.1 stub/gl.c
cat > glview.c <<'C'
#include <Python.h>
extern int glGetError(void);
static PyObject *err(PyObject *s, PyObject *a) { return PyLong_FromLong(glGetError()); }
static PyMethodDef m[] = {{"err", err, METH_NOARGS, NULL}, {NULL}};
static struct PyModuleDef d = {PyModuleDef_HEAD_INIT, "glview", NULL, -1, m};
PyMODINIT_FUNC PyInit_glview(void) { return PyModule_Create(&d); }
C
gcc -shared -fPIC -I"$inc" -o "site/glview$ext" glview.c -Lstub -l:libGL.so.1
rm -rf stub
# hide the system's libGL (if any) with overlay whiteouts, in a private mount namespace
libdir=$(dirname "$(ldconfig -p | awk '/libc\.so\.6 .*x86-64/ {print $NF; exit}')")
for f in "$libdir"/libGL.so*; do [ -e "$f" ] && mknod "up/${f##*/}" c 0 0; done
cd site
unshare -m sh -c "mount -t overlay overlay -o lowerdir=$libdir,upperdir=$PWD/../up,workdir=$PWD/../wk $libdir 2>/dev/null; python -c 'import glview'"
