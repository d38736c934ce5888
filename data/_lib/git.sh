# Shared setup for the git reproductions in data/git/ (sourced: . "$REPRO_LIB/git.sh").

# git_identity: a global identity and main as the first branch, so output does not depend on the host.
git_identity() {
  git config --global user.name 'Dev One'
  git config --global user.email dev@example.com
  git config --global init.defaultBranch main
}

# shared_remote [FILE [CONTENT]]: a bare remote.git whose main holds one commit adding FILE
# (default a.txt) with CONTENT (printf %b, default "1\n"), cloned twice: alice (who pushes
# next) and bob (who then finds the remote has moved on).
shared_remote() {
  git init -q --bare remote.git
  git clone -q remote.git alice 2>/dev/null
  (cd alice && printf '%b' "${2:-1\n}" > "${1:-a.txt}" && git add . && git commit -qm base && git push -q origin main)
  git clone -q remote.git bob
}

# private_tmp: re-runs the calling script in its own mount namespace with an empty tmpfs on
# /tmp, so a fixed path such as /tmp/webapp in the output never touches the host's /tmp.
# What the run needs from the host's /tmp (the working folder, the script and this library,
# when the checkout itself lives under /tmp) is bound back at its own path through /mnt,
# which the namespace may cover freely. Call it first, before any output.
private_tmp() {
  [ -n "${REPRO_PRIVATE_TMP:-}" ] && return 0
  REPRO_PRIVATE_TMP=1 exec unshare --mount --propagation private bash -c '
    here=$PWD
    [ "$here" = /tmp ] && { echo "private_tmp: run it from a folder, not from /tmp itself" >&2; exit 1; }
    mount --bind /tmp /mnt || exit 1
    mount -t tmpfs -o mode=1777 repro-tmp /tmp || exit 1
    for keep in "$here" "$(dirname "$0")" "$REPRO_LIB"; do
      case "$keep/" in
        /tmp/*) mkdir -p "$keep" && mount --no-canonicalize --bind "/mnt/${keep#/tmp/}" "$keep" || exit 1 ;;
      esac
    done
    cd "$here" && exec bash "$0"' "$0"
}

# diverged_clones: shared_remote, then alice pushes a commit and bob (left unfetched) makes
# his own, so bob's main and the remote's main have diverged.
diverged_clones() {
  shared_remote
  (cd alice && echo 2 >> a.txt && git commit -qam 'alice change' && git push -q origin main)
  (cd bob && echo b > b.txt && git add . && git commit -qm 'bob change')
}
