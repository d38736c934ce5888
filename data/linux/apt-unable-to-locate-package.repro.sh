# requires: apt-get
# Simulates (-s, nothing is installed or changed) apt-get install on a system whose package lists are empty, as in a Docker image where apt-get update was not run.
set -u
mkdir -p lists/partial
: > status
apt() { apt-get -s -o Dir::State::Lists="$PWD/lists" -o Dir::State::status="$PWD/status" "$@"; }
apt-get --version | head -1
apt install ffmpeg
LC_ALL=zh_CN.UTF-8 apt install ffmpeg
apt install python3.12-venv
