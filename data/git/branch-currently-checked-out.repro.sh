# requires: git
# timeout: 60
# Pushes to the checked-out branch of a non-bare repository, in English and zh_CN; then pushes to a bare repository instead.
. "$REPRO_LIB/git.sh"
git_identity
git init -q server && (cd server && echo 1 > a.txt && git add . && git commit -qm base)
git clone -q server laptop && cd laptop
echo 2 >> a.txt && git commit -qam change
git push origin main
LC_ALL=zh_CN.UTF-8 LANGUAGE=zh_CN git push origin main
echo '--- the fix:'
git clone -q --bare ../server ../server.git && git remote set-url origin ../server.git && git push origin main
