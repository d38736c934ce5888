# requires: git
# timeout: 60
# A clone with an uncommitted edit to a file that the incoming commit also changes, then an untracked file the incoming commit adds: git pull / git merge refuse, in English and zh_CN; stash (or move the file), merge, pop.
. "$REPRO_LIB/git.sh"
git_identity
shared_remote config.ini 'host=localhost\nport=80\nuser=app\nworkers=4\nlog=info\ndebug=false\n'
(cd alice && sed -i 's/port=80/port=8080/' config.ini && git commit -qam 'change port' && git push -q origin main)
cd bob
sed -i 's/debug=false/debug=true/' config.ini
git pull --no-rebase origin main
git fetch -q origin
LC_ALL=zh_CN.UTF-8 LANGUAGE=zh_CN git merge origin/main
echo '--- the fix:'
git stash push -m 'wip before pull' && git merge -q origin/main && git stash pop && cat config.ini
echo '--- an untracked file in the way:'
(cd ../alice && echo 'make all' > build.sh && git add build.sh && git commit -qm 'add build.sh' && git push -q origin main)
echo 'my local build.sh' > build.sh
git pull --no-rebase origin main
LC_ALL=zh_CN.UTF-8 LANGUAGE=zh_CN git merge origin/main
mv build.sh build.sh.mine && git merge -q origin/main && ls build.sh*
