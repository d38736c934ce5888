# requires: git
# timeout: 60
# Pulls and fetches a branch name the remote does not have (master when it only has main), in English and zh_CN.
. "$REPRO_LIB/git.sh"
git_identity
git init -q --bare remote.git
git clone -q remote.git app 2>/dev/null && cd app
echo 1 > a.txt && git add . && git commit -qm base && git push -q origin main
git pull origin master
LC_ALL=zh_CN.UTF-8 LANGUAGE=zh_CN git pull origin master
git fetch origin feature/missing
echo '--- the fix:'
git ls-remote --heads origin && git pull origin main
