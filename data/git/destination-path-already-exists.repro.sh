# requires: git
# timeout: 60
# Clones into a directory that already exists and is not empty, in English and zh_CN.
. "$REPRO_LIB/git.sh"
git_identity
git init -q --bare app.git
mkdir app && echo notes > app/TODO.txt
git clone app.git app
LC_ALL=zh_CN.UTF-8 LANGUAGE=zh_CN git clone app.git app
echo '--- the fix:'
git clone -q app.git app-2 2>&1 && ls -d app-2
