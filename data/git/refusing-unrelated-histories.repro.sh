# requires: git
# timeout: 60
# Two repositories with separate root commits: merge and pull --no-rebase refuse (in English and zh_CN); then the merge is allowed once.
. "$REPRO_LIB/git.sh"
git_identity
git init -q theirs && (cd theirs && echo readme > README.md && git add . && git commit -qm 'Initial commit')
git init -q mine && cd mine && echo code > app.py && git add . && git commit -qm 'first local commit'
git remote add origin ../theirs
git fetch -q origin
git merge origin/main
LC_ALL=zh_CN.UTF-8 LANGUAGE=zh_CN git merge origin/main
git pull --no-rebase origin main
echo '--- the fix:'
git pull --no-rebase --allow-unrelated-histories origin main
git log --oneline --graph
