# requires: git
# timeout: 60
# Adds an LF file with core.autocrlf=true (the Git for Windows default), and a CRLF file with core.autocrlf=input, in English and zh_CN.
. "$REPRO_LIB/git.sh"
git_identity
git init -q repo && cd repo
git config core.autocrlf true
printf 'line1\nline2\n' > unix.txt
git add unix.txt
git rm -q --cached unix.txt
LC_ALL=zh_CN.UTF-8 LANGUAGE=zh_CN git add unix.txt
git config core.autocrlf input
printf 'line1\r\nline2\r\n' > windows.txt
git add windows.txt
echo '--- the fix:'
git config core.autocrlf false
printf '* text=auto\n*.sh text eol=lf\n*.bat text eol=crlf\n' > .gitattributes
git add --renormalize . && git status --short
