# requires: npm
# timeout: 90
# Locks a local tarball, then replaces its integrity in package-lock.json (as after a republish or a bad merge) and runs npm ci.
. "$REPRO_LIB/node.sh"   # quiet npm settings, cache in this folder
mkdir -p left-pad app
echo '{"name":"left-pad","version":"1.3.0"}' > left-pad/package.json
(cd left-pad && npm pack --loglevel=error >/dev/null)
cd app
echo '{"name":"app","version":"1.0.0","dependencies":{"left-pad":"file:../left-pad/left-pad-1.3.0.tgz"}}' > package.json
npm install --offline --loglevel=error
sed -i 's#"integrity": "sha512-[^"]*"#"integrity": "sha512-mLNzKOFmzLR/2e7QmiC8V60ZLHAt2cyhQ4lf65kpxCZ8hz5K0frbPRyT1SIQmHDE7+mRnnv7VBJCZKc0vi2M1Q=="#' package-lock.json
rm -rf node_modules
npm ci --offline
