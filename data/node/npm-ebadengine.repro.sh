# requires: npm
# timeout: 60
# Installs a local package whose "engines" requires Node >=22 on Node 20, first normally (warning), then with engine-strict (error).
. "$REPRO_LIB/node.sh"   # quiet npm settings, cache in this folder
mkdir -p next-like app
echo '{"name":"next-like","version":"15.0.0","engines":{"node":">=22.0.0"}}' > next-like/package.json
cd app
echo '{"name":"app","version":"1.0.0"}' > package.json
npm install --offline --install-links ../next-like
rm -rf node_modules package-lock.json
npm install --offline --install-links --engine-strict ../next-like
