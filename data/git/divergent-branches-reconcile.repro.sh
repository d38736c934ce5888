# requires: git
# timeout: 60
# Local and remote both have new commits and no pull.rebase/pull.ff is configured: git pull stops (Git >= 2.33.1), in English and zh_CN; then pull.ff=only on the same branches.
. "$REPRO_LIB/git.sh"
git_identity
diverged_clones
cd bob
git pull
LC_ALL=zh_CN.UTF-8 LANGUAGE=zh_CN git pull
echo '--- with pull.ff=only:'
git -c pull.ff=only pull
LC_ALL=zh_CN.UTF-8 LANGUAGE=zh_CN git -c pull.ff=only pull
echo '--- the fix:'
git config pull.rebase true
git pull
git log --oneline
