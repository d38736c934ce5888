# requires: git
# timeout: 60
# An uncommitted edit to a file that differs on the target branch, then an untracked file the target branch tracks: git checkout / git switch refuse, in English and zh_CN.
. "$REPRO_LIB/git.sh"
git_identity
git init -q repo && cd repo
printf 'v1\n' > settings.py && git add . && git commit -qm base
git branch feature
printf 'v2\n' > settings.py && git commit -qam 'main change'
printf 'local edit\n' > settings.py
git checkout feature
git switch feature
LC_ALL=zh_CN.UTF-8 LANGUAGE=zh_CN git checkout feature
echo '--- the fix:'
git stash push -m wip && git switch feature && git stash list
echo '--- an untracked file in the way:'
git switch -q main && git switch -qc docs && echo 'official' > NOTES.md && git add NOTES.md && git commit -qm notes && git switch -q main
echo 'my notes' > NOTES.md
git switch docs
LC_ALL=zh_CN.UTF-8 LANGUAGE=zh_CN git checkout docs
