# requires: git
# timeout: 60
# A remote replaces branch feature with feature/login: fetch cannot create the remote-tracking ref (file/directory clash), and a local branch name collides the same way, in English and zh_CN.
. "$REPRO_LIB/git.sh"
git_identity
git init -q --bare remote.git
git clone -q remote.git alice 2>/dev/null
(cd alice && echo 1 > a.txt && git add . && git commit -qm base && git push -q origin main HEAD:feature)
git clone -q remote.git bob
(cd alice && git push -q origin :feature && git push -q origin HEAD:feature/login)
cd bob
git fetch origin
LC_ALL=zh_CN.UTF-8 LANGUAGE=zh_CN git fetch origin
git branch bugfix && git branch bugfix/typo
LC_ALL=zh_CN.UTF-8 LANGUAGE=zh_CN git branch bugfix/typo
echo '--- the fix:'
git fetch --prune origin
