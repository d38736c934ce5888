# requires: gcc
# Compiles a C program that calls cos() and a C++ program that calls a function declared but never defined, and links them without the code that defines the symbols.
set -u
printf '#include <stdio.h>\n#include <math.h>\nint main(int argc, char **argv) { printf("%%f\\n", cos(argc)); return 0; }\n' > main.c
gcc -c main.c -o main.o
gcc -o main main.o
cat > app.cpp <<'CPP'
#include <string>
std::string greet(const std::string &name);
int main() { return greet("x").size() > 0 ? 0 : 1; }
CPP
g++ -c app.cpp -o app.o
g++ -o app app.o
