# requires: gcc
# Passes an ARM-only flag (-mfpu=neon) and a clang-only flag to gcc on x86-64, in the C.UTF-8 and C locales.
set -u
printf 'int main(void) { return 0; }\n' > main.c
gcc --version | head -1
gcc -O2 -mfpu=neon -c main.c
LC_ALL=C gcc -O2 -mfpu=neon -c main.c
gcc -fcolor-diagnostics -c main.c
