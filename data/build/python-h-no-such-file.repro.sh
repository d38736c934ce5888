# requires: gcc
# Compiles a minimal CPython extension module without the Python include directory on the compiler's search path.
set -u
cat > spam.c <<'C'
#include <Python.h>
static struct PyModuleDef spam_module = {PyModuleDef_HEAD_INIT, "spam"};
PyMODINIT_FUNC PyInit_spam(void) { return PyModule_Create(&spam_module); }
C
gcc -fPIC -c spam.c -o spam.o
LC_ALL=zh_CN.UTF-8 gcc -fPIC -c spam.c -o spam.o
