# requires: docker unshare mount
# timeout: 30
# In a private mount namespace with an empty /var/run (so no daemon socket exists even on a host that runs Docker), runs docker CLI commands against the default socket.
unset DOCKER_HOST DOCKER_CONTEXT
unshare -m --propagation private bash -c '
  mount -t tmpfs tmpfs /var/run || exit 1
  docker ps
  docker run --rm hello-world
'
