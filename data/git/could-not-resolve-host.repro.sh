# requires: git
# timeout: 60
# Clones from a host name that cannot resolve (.invalid never does; offline machines fail the same way for github.com), in English and zh_CN.
. "$REPRO_LIB/git.sh"
git_identity
git clone https://git.example.invalid/team/app.git
LC_ALL=zh_CN.UTF-8 LANGUAGE=zh_CN git clone https://git.example.invalid/team/app.git
git -c http.proxy=http://proxy.example.invalid:3128 clone https://git.example.invalid/team/app.git
