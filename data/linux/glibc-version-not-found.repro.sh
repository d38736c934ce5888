# requires: gcc python
# Builds a program, rewrites its GLIBC_2.34 version requirement to GLIBC_2.38 (as if built on a newer distro), and runs it on glibc 2.36.
set -u
printf '#include <stdio.h>\nint main(void) { puts("hello"); return 0; }\n' > app.c
gcc -o app app.c
ldd --version | head -1
python - <<'PY'
data = open("app", "rb").read()
open("app", "wb").write(data.replace(b"GLIBC_2.34\0", b"GLIBC_2.38\0"))
PY
./app
