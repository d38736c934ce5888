# requires: git
# timeout: 60
# git pull --rebase with uncommitted edits in the working tree, in English and zh_CN; then with --autostash.
. "$REPRO_LIB/git.sh"
git_identity
shared_remote notes.txt 'a\nb\nc\nd\ne\nf\n'
(cd alice && sed -i 's/^a$/A/' notes.txt && git commit -qam 'upper a' && git push -q origin main)
cd bob
sed -i 's/^f$/F/' notes.txt
git pull --rebase
LC_ALL=zh_CN.UTF-8 LANGUAGE=zh_CN git pull --rebase
echo x > staged.txt && git add staged.txt
git pull --rebase
echo '--- the fix:'
git pull --rebase --autostash
