# Shared helpers for the shell and C-extension reproductions in data/linux/ and data/build/
# (sourced: . "$REPRO_LIB/shell.sh").

# ibash CMD: runs CMD in an interactive bash (no rc files), so errors are prefixed "bash: " as a
# user at a prompt sees them; drops the job-control warnings bash prints without a terminal.
ibash() {
  bash --norc --noprofile -i -c "$1" 2>&1 |
    grep -v -e "job control" -e "terminal process group" -e "终端进程组" -e "任务控制"
}

# pyext_paths: sets and exports inc (CPython's include directory) and ext (the extension-module
# file suffix, e.g. .cpython-311-x86_64-linux-gnu.so) for the python on PATH.
pyext_paths() {
  inc=$(python -c 'import sysconfig; print(sysconfig.get_paths()["include"])')
  ext=$(python -c 'import sysconfig; print(sysconfig.get_config_var("EXT_SUFFIX"))')
  export inc ext
}
