# requires: git
# timeout: 60
# Deletes or empties loose objects from a small repository (as a crash or a bad copy would): a missing commit gives "bad object", a missing tree "unable to read tree", an emptied one "object file ... is empty", in English and zh_CN; then restores them from a clone.
. "$REPRO_LIB/git.sh"
git_identity
export GIT_AUTHOR_DATE='2026-01-01T10:00:00Z' GIT_COMMITTER_DATE='2026-01-01T10:00:00Z'
git init -q --bare backup.git
git init -q repo && cd repo
echo 1 > a.txt && git add . && git commit -qm one
echo 2 > b.txt && git add . && git commit -qm two
git push -q ../backup.git main
head=$(git rev-parse HEAD); tree=$(git rev-parse HEAD^{tree})
cp -a .git ../saved-git
rm -f ".git/objects/${tree:0:2}/${tree:2}"
git diff --stat HEAD~1 HEAD
LC_ALL=zh_CN.UTF-8 LANGUAGE=zh_CN git diff --stat HEAD~1 HEAD
rm -rf .git && cp -a ../saved-git .git
rm -f ".git/objects/${head:0:2}/${head:2}"
git show --stat HEAD
LC_ALL=zh_CN.UTF-8 LANGUAGE=zh_CN git show --stat HEAD
git fsck 2>&1 | head -3
rm -rf .git && cp -a ../saved-git .git
chmod u+w ".git/objects/${head:0:2}/${head:2}" && : > ".git/objects/${head:0:2}/${head:2}"
git log --oneline -1
echo '--- the fix:'
find .git/objects -type f -empty -delete && git fetch -q ../backup.git main && git fsck --no-dangling && git log --oneline -1
