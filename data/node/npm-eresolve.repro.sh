# requires: npm
# timeout: 90
# Installs react 18 (a local tarball) next to a plugin whose peerDependencies only allow react ^17.
. "$REPRO_LIB/node.sh"   # quiet npm settings, cache in this folder
mkdir -p react plugin app
echo '{"name":"react","version":"18.2.0"}' > react/package.json
echo '{"name":"react-old-plugin","version":"2.1.0","peerDependencies":{"react":"^16.8.0 || ^17.0.0"}}' > plugin/package.json
(cd react && npm pack --loglevel=error >/dev/null)
(cd plugin && npm pack --loglevel=error >/dev/null)
cd app
echo '{"name":"app","version":"1.0.0","dependencies":{"react":"file:../react/react-18.2.0.tgz","react-old-plugin":"file:../plugin/react-old-plugin-2.1.0.tgz"}}' > package.json
npm install --offline
