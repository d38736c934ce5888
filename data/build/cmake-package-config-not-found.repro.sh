# requires: cmake
# Configures a project that calls find_package(OpenCV REQUIRED) on a machine without OpenCV's CMake package files.
set -u
mkdir -p app
printf 'cmake_minimum_required(VERSION 3.16)\nproject(app NONE)\nfind_package(OpenCV REQUIRED)\n' > app/CMakeLists.txt
cmake --version | head -1
cmake -S app -B app/build
