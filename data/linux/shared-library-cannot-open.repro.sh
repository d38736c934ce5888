# requires: gcc
# Links a program against a locally built libssl.so.1.1 stand-in, removes the library, and runs the program.
set -u
mkdir -p oldlibs
echo 'int SSL_library_init(void) { return 1; }' > oldlibs/ssl.c
gcc -shared -fPIC -Wl,-soname,libssl.so.1.1 -o oldlibs/libssl.so.1.1 oldlibs/ssl.c
printf 'int SSL_library_init(void);\nint main(void) { return !SSL_library_init(); }\n' > server.c
gcc -o server server.c -Loldlibs -l:libssl.so.1.1
rm -rf oldlibs
./server
LC_ALL=zh_CN.UTF-8 ./server
