# requires: npm
# timeout: 60
# Runs npm ci in a project that has dependencies but no package-lock.json.
. "$REPRO_LIB/node.sh"   # quiet npm settings, cache in this folder
mkdir -p packages/left-pad app
echo '{"name":"left-pad","version":"1.3.0"}' > packages/left-pad/package.json
cd app
echo '{"name":"app","version":"1.0.0","dependencies":{"left-pad":"file:../packages/left-pad"}}' > package.json
npm ci --offline 2>&1 | head -8
