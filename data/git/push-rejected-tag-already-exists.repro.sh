# requires: git
# timeout: 60
# Pushes tag v1.0, moves it to a newer commit locally and pushes it again, in English and zh_CN.
. "$REPRO_LIB/git.sh"
git_identity
git init -q --bare remote.git
git clone -q remote.git app 2>/dev/null && cd app
echo 1 > a.txt && git add . && git commit -qm 'release 1.0' && git tag v1.0 && git push -q origin main v1.0
echo 2 >> a.txt && git commit -qam 'hotfix' && git tag -f v1.0 >/dev/null
git push origin v1.0
LC_ALL=zh_CN.UTF-8 LANGUAGE=zh_CN git push origin v1.0
echo '--- the fix:'
git fetch -q --force origin refs/tags/v1.0:refs/tags/v1.0 && git tag v1.0.1 && git push origin v1.0.1
