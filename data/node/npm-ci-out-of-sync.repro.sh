# requires: npm
# timeout: 90
# Installs a local dependency, adds a second one to package.json without updating the lock file, then runs npm ci.
. "$REPRO_LIB/node.sh"   # quiet npm settings, cache in this folder
mkdir -p packages/left-pad packages/is-odd app
echo '{"name":"left-pad","version":"1.3.0"}' > packages/left-pad/package.json
echo '{"name":"is-odd","version":"3.0.1"}' > packages/is-odd/package.json
cd app
echo '{"name":"app","version":"1.0.0","dependencies":{"left-pad":"file:../packages/left-pad"}}' > package.json
npm install --offline --loglevel=error
echo '{"name":"app","version":"1.0.0","dependencies":{"left-pad":"file:../packages/left-pad","is-odd":"file:../packages/is-odd"}}' > package.json
npm ci --offline 2>&1 | head -8
