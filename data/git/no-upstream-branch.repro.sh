# requires: git
# timeout: 60
# Pushes and pulls a new local branch that has no upstream configured, in English and zh_CN.
. "$REPRO_LIB/git.sh"
git_identity
git init -q --bare remote.git
git clone -q remote.git app 2>/dev/null && cd app
echo 1 > a.txt && git add . && git commit -qm base && git push -q -u origin main
git switch -qc feature/login && echo 2 > login.txt && git add . && git commit -qm login
git push
LC_ALL=zh_CN.UTF-8 LANGUAGE=zh_CN git push
git pull
LC_ALL=zh_CN.UTF-8 LANGUAGE=zh_CN git pull
echo '--- the fix:'
git push -u origin HEAD && git pull
