# requires: git
# timeout: 60
# Commits with no user.name/user.email configured and no usable host name for a guess, in English and zh_CN.
git config --global init.defaultBranch main
unset GIT_AUTHOR_NAME GIT_AUTHOR_EMAIL GIT_COMMITTER_NAME GIT_COMMITTER_EMAIL EMAIL
git init -q repo && cd repo
echo x > a.txt && git add a.txt
git -c user.useConfigOnly=true commit -m first
LC_ALL=zh_CN.UTF-8 LANGUAGE=zh_CN git -c user.useConfigOnly=true commit -m first
echo '--- the fix:'
git config --global user.name 'Dev One' && git config --global user.email dev@example.com
git commit -qm first && git log --format='%an <%ae>' -1
