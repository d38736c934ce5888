# requires: npm unshare
# timeout: 60
# Runs npm install in a folder that has no package.json (here mounted at /home/dev/app).
# in_app (data/_lib/node.sh) runs a command with this folder mounted at /home/dev/app, so paths are stable.
. "$REPRO_LIB/node.sh"
in_app npm install --offline
