# requires: git
# timeout: 60
# Pushes to a remote name that is not configured and clones a path that is not a repository, in English and zh_CN.
. "$REPRO_LIB/git.sh"
git_identity
git init -q app && cd app && echo 1 > a.txt && git add . && git commit -qm base
git push -u origin main
LC_ALL=zh_CN.UTF-8 LANGUAGE=zh_CN git push -u origin main
mkdir ../not-a-repo
git fetch ../not-a-repo
git clone ../missing-repo copy
LC_ALL=zh_CN.UTF-8 LANGUAGE=zh_CN git clone ../missing-repo copy
echo '--- the fix:'
git init -q --bare ../remote.git && git remote add origin ../remote.git && git push -u origin main
