# requires: cmake make
# Configures a C/C++ project on a PATH that has cmake and make but no compiler (like a fresh machine), then with CXX naming a compiler that is not installed.
set -u
mkdir -p bin app
ln -sf "$(type -P cmake)" bin/cmake
ln -sf "$(type -P make)" bin/make
printf 'cmake_minimum_required(VERSION 3.16)\nproject(app C CXX)\n' > app/CMakeLists.txt
env PATH="$PWD/bin" cmake -S app -B build
printf 'cmake_minimum_required(VERSION 3.16)\nproject(app CXX)\n' > app/CMakeLists.txt
env CXX=g++-14 cmake -S app -B build2
