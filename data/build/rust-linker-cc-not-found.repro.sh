# requires: rustc
# Compiles a hello-world with rustc on a PATH that has no C compiler/linker (cc), as in a fresh slim container.
set -u
rustc_bin=$(command -v rustc)
case "$rustc_bin" in
  */.cargo/bin/rustc) export RUSTUP_HOME=${RUSTUP_HOME:-${rustc_bin%/.cargo/bin/rustc}/.rustup} ;;
esac
real=$("$rustc_bin" --print sysroot)/bin/rustc
"$real" --version
echo 'fn main() { println!("hello"); }' > main.rs
env PATH=/nonexistent "$real" main.rs
