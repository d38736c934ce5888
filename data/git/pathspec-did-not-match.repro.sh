# requires: git
# timeout: 60
# Checks out a branch that exists only on the remote and was never fetched, and adds a file name that does not exist, in English and zh_CN.
. "$REPRO_LIB/git.sh"
git_identity
shared_remote
(cd alice && git switch -qc feature-login && echo 2 > login.txt && git add . && git commit -qm login && git push -q origin feature-login)
cd bob
git checkout feature-login
LC_ALL=zh_CN.UTF-8 LANGUAGE=zh_CN git checkout feature-login
git add Readme.md
LC_ALL=zh_CN.UTF-8 LANGUAGE=zh_CN git add Readme.md
echo '--- the fix:'
git fetch -q origin && git switch feature-login
