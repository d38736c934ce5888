# requires: npm
# timeout: 60
# Installs a local package whose postinstall script exits with status 1.
. "$REPRO_LIB/node.sh"   # quiet npm settings, cache in this folder
mkdir -p sharp-like app
cat > sharp-like/package.json <<'JSON'
{"name":"sharp-like","version":"1.0.0","scripts":{"postinstall":"node install/check.js"}}
JSON
mkdir -p sharp-like/install
echo 'console.error("prebuilt binary not found"); process.exit(1);' > sharp-like/install/check.js
cd app
echo '{"name":"app","version":"1.0.0"}' > package.json
npm install --offline --install-links ../sharp-like
