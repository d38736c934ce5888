# requires: npm
# timeout: 60
# Runs npm start and npm run dev in a package whose scripts define neither.
. "$REPRO_LIB/node.sh"   # quiet npm settings, cache in this folder
echo '{"name":"app","version":"1.0.0","scripts":{"build":"node build.js"}}' > package.json
npm start
npm run dev
