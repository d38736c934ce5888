# requires: node
# timeout: 30
# Asks OpenSSL 3 (bundled with Node 17+) for the legacy MD4 hash, as webpack 4 does for module ids.
node -e "require('crypto').createHash('md4').update('webpack').digest('hex')"
