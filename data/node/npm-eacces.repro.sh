# requires: npm unshare runuser
# timeout: 90
# As an unprivileged user (nobody), installs a CLI globally into a root-owned /usr/local (a private tmpfs, so the real one is untouched).
. "$REPRO_LIB/node.sh"   # quiet npm settings, cache in this folder
mkdir -p tool h
echo '{"name":"typescript","version":"5.4.5","bin":{"tsc":"tsc.js"}}' > tool/package.json
printf '#!/usr/bin/env node\nconsole.log("Version 5.4.5")\n' > tool/tsc.js
(cd tool && npm pack --loglevel=error >/dev/null)
chmod 755 . tool; chown -R nobody h
unshare -m sh -c 'mount --make-rprivate / && mount -t tmpfs tmpfs /usr/local && mkdir -p /usr/local/lib/node_modules /usr/local/bin && exec runuser -u nobody -- env HOME="$0/h" npm_config_cache="$0/h/.npm" npm_config_update_notifier=false npm install -g --prefix /usr/local --offline "$0/tool/typescript-5.4.5.tgz"' "$PWD"
