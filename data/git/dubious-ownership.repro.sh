# requires: git unshare
# timeout: 60
# As root, runs git in a repository owned by the user nobody (CVE-2022-24765 protection), in English and zh_CN, then adds a safe.directory exception. The repository sits at /tmp/shared-repo on a private tmpfs (own mount namespace), so the path is stable and the host's /tmp is untouched.
. "$REPRO_LIB/git.sh"
private_tmp
git_identity
repo=/tmp/shared-repo
git init -q "$repo" && chown -R nobody "$repo"
cd "$repo"
git status
LC_ALL=zh_CN.UTF-8 LANGUAGE=zh_CN git status
echo '--- the fix:'
git config --global --add safe.directory "$repo"
git status --short --branch
