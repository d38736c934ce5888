# requires: cmake unshare mount
# Configures /home/dev/app, copies the project with its build folder to /home/dev/app-v2, and configures the copy (paths made fixed with a private tmpfs on /home).
set -u
unshare -m sh -c '
mount -t tmpfs tmpfs /home || exit 1
mkdir -p /home/dev/app && cd /home/dev
printf "cmake_minimum_required(VERSION 3.16)\nproject(app NONE)\n" > app/CMakeLists.txt
cmake -S app -B app/build > /dev/null
cp -r app app-v2
cmake -S app-v2 -B app-v2/build
'
