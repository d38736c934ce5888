# requires: make
# Runs make with a Makefile whose object depends on a header that does not exist, then asks for a target the Makefile does not define.
set -u
printf 'app: main.o\n\tcc -o app main.o\nmain.o: main.c config.h\n\tcc -c main.c\n' > Makefile
printf 'int main(void) { return 0; }\n' > main.c
make
LC_ALL=zh_CN.UTF-8 make
make install
LC_ALL=zh_CN.UTF-8 make install
