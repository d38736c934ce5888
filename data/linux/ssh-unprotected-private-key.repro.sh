# requires: ssh-keygen
# Creates an ed25519 key, makes it world-readable (mode 0644, as after a copy or unzip), and asks ssh-keygen to load it.
set -u
mkdir -p .ssh
ssh-keygen -q -t ed25519 -N '' -C demo -f .ssh/id_ed25519
chmod 644 .ssh/id_ed25519
cd .ssh && ssh-keygen -y -f id_ed25519
