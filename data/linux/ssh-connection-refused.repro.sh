# requires: ssh ip
# Connects with ssh to port 22 on the loopback address, where no sshd is listening.
set -u
ip link set lo up 2>/dev/null
ssh -o BatchMode=yes -o ConnectTimeout=5 -p 22 127.0.0.1 true
ssh -o BatchMode=yes -o ConnectTimeout=5 -p 2222 127.0.0.1 true
