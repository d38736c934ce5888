# requires: git
# timeout: 60
# Two clones of one bare remote: the second pushes after the first, once with the remote commit already fetched (non-fast-forward) and once without (fetch first), in English and zh_CN.
. "$REPRO_LIB/git.sh"
git_identity
diverged_clones
cd bob
echo '--- remote commit not fetched yet:'
git push origin main
LC_ALL=zh_CN.UTF-8 LANGUAGE=zh_CN git push origin main
git fetch -q origin
echo '--- after git fetch:'
git push origin main
LC_ALL=zh_CN.UTF-8 LANGUAGE=zh_CN git push origin main
echo '--- the fix:'
git pull -q --rebase origin main && git push origin main
