# requires: docker python runuser unshare mount
# timeout: 60
# In a private mount namespace, puts a root-owned 0660 socket at /var/run/docker.sock and runs the docker CLI as the unprivileged user nobody.
unshare -m --propagation private bash -c '
  mount -t tmpfs tmpfs /var/run || exit 1
  mkdir /var/run/home && chown nobody /var/run/home
  python -c "
import os, socket, time
s = socket.socket(socket.AF_UNIX)
s.bind(\"/var/run/docker.sock\")
os.chmod(\"/var/run/docker.sock\", 0o660)
s.listen(1)
time.sleep(10)
" &
  for i in $(seq 50); do [ -S /var/run/docker.sock ] && break; sleep 0.1; done
  runuser -u nobody -- env HOME=/var/run/home DOCKER_HOST=unix:///var/run/docker.sock docker ps
  kill %1
'
