# requires: git
# timeout: 60
# Adds a remote named origin to a repository that already has one, in English and zh_CN; then changes its URL instead.
. "$REPRO_LIB/git.sh"
git_identity
git init -q --bare old.git && git init -q --bare new.git
git clone -q old.git app 2>/dev/null && cd app
git remote add origin ../new.git
LC_ALL=zh_CN.UTF-8 LANGUAGE=zh_CN git remote add origin ../new.git
echo '--- the fix:'
git remote set-url origin ../new.git && git remote -v
