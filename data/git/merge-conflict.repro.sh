# requires: git
# timeout: 60
# Two branches change the same line of a file: git merge stops with a content conflict, in English and zh_CN; then the conflict is resolved and committed.
. "$REPRO_LIB/git.sh"
git_identity
git init -q repo && cd repo
printf 'timeout = 30\n' > app.conf && git add . && git commit -qm base
git switch -qc feature && printf 'timeout = 60\n' > app.conf && git commit -qam 'feature: timeout 60'
git switch -q main && printf 'timeout = 45\n' > app.conf && git commit -qam 'main: timeout 45'
git merge feature
git merge --abort
LC_ALL=zh_CN.UTF-8 LANGUAGE=zh_CN git merge feature
echo '--- the fix:'
git status --short
printf 'timeout = 60\n' > app.conf && git add app.conf && git commit -q --no-edit && git log --oneline -1
