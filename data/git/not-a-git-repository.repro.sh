# requires: git
# timeout: 60
# Runs git outside any repository (in English and zh_CN), at a mount point, and with a GIT_DIR that points nowhere.
mkdir -p outside/sub && cd outside/sub
export GIT_CEILING_DIRECTORIES="$(dirname "$PWD")"
git status
LC_ALL=zh_CN.UTF-8 LANGUAGE=zh_CN git status
GIT_DIR=/nonexistent/app.git git status
LC_ALL=zh_CN.UTF-8 LANGUAGE=zh_CN GIT_DIR=/nonexistent/app.git git status
(cd /proc && git status)
(cd /proc && LC_ALL=zh_CN.UTF-8 LANGUAGE=zh_CN git status)
