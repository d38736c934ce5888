# requires: git
# timeout: 60
# Asks for HEAD in a repository with no commits, and HEAD~1 / a misspelled branch in a repository with one commit, in English and zh_CN.
. "$REPRO_LIB/git.sh"
git_identity
git init -q empty && cd empty
git rev-parse HEAD
LC_ALL=zh_CN.UTF-8 LANGUAGE=zh_CN git rev-parse HEAD
cd .. && git init -q one && cd one && echo 1 > a.txt && git add . && git commit -qm first
git reset --soft HEAD~1
git diff mian
echo '--- the fix:'
git rev-parse --verify -q HEAD~1 || git update-ref -d HEAD
git status --short
