# requires: git unshare
# timeout: 60
# Leaves a stale .git/index.lock behind (as a crashed git process would) and runs git add, in English and zh_CN. The repository sits at /tmp/webapp on a private tmpfs (own mount namespace), so the path is stable and the host's /tmp is untouched.
. "$REPRO_LIB/git.sh"
private_tmp
git_identity
repo=/tmp/webapp
git init -q "$repo" && cd "$repo"
echo x > a.txt
touch .git/index.lock
git add a.txt
LC_ALL=zh_CN.UTF-8 LANGUAGE=zh_CN git add a.txt
echo '--- the fix (after checking that no git process is running):'
rm -f .git/index.lock && git add a.txt && git status --short
