# requires: gcc python unshare mount
# Builds a program and a Python extension against version 2 of a small library, then runs them with version 1 of it installed (the symbol they need is missing). Paths are made fixed with a private tmpfs on /home.
set -u
. "$REPRO_LIB/shell.sh"
pyext_paths
unshare -m bash -c '
mount -t tmpfs tmpfs /home || exit 1
mkdir -p /home/dev/app && cd /home/dev/app
# libcodec 2.x added codec_open2(); 1.x has only codec_open()
printf "int codec_open(void) { return 1; }\nint codec_open2(int f) { return f; }\n" > v2.c
printf "int codec_open(void) { return 1; }\n" > v1.c
gcc -shared -fPIC -Wl,-soname,libcodec.so.1 -o libcodec.so.1 v2.c
ln -sf libcodec.so.1 libcodec.so
printf "int codec_open2(int);\nint main(void) { return codec_open2(0); }\n" > player.c
gcc -o player player.c -L. -lcodec
cat > fastcodec.c <<C
#include <Python.h>
extern int codec_open2(int);
static struct PyModuleDef m = {PyModuleDef_HEAD_INIT, "fastcodec"};
PyMODINIT_FUNC PyInit_fastcodec(void) { codec_open2(0); return PyModule_Create(&m); }
C
gcc -shared -fPIC -I"$inc" -o "fastcodec$ext" fastcodec.c -L. -lcodec
# now the older library is what gets installed
gcc -shared -fPIC -Wl,-soname,libcodec.so.1 -o libcodec.so.1 v1.c
LD_LIBRARY_PATH=. ./player
LD_LIBRARY_PATH=. python -c "import fastcodec"
'
