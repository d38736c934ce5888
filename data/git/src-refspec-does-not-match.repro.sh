# requires: git
# timeout: 60
# Pushes a branch name that does not exist locally: first in a repository with no commit yet, then the wrong branch name (main vs master), in English and zh_CN.
. "$REPRO_LIB/git.sh"
git_identity
git init -q --bare remote.git
git init -q app && cd app
git remote add origin ../remote.git
echo '--- no commit yet:'
git push -u origin main
LC_ALL=zh_CN.UTF-8 LANGUAGE=zh_CN git push -u origin main
echo x > a.txt && git add . && git commit -qm first
echo '--- wrong branch name:'
git push origin master
git branch --show-current
git push -u origin main
