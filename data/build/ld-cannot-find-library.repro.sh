# requires: gcc ld
# Links a program with -lmysqlclient (the library mysqlclient and other MySQL clients link) on a machine without the development library.
set -u
printf 'int main(void) { return 0; }\n' > main.c
gcc -c main.c -o main.o
ld --version | head -1
gcc -o client main.o -lmysqlclient
