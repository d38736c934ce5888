# requires: node
# timeout: 30
# Passes undefined (a missing environment variable) to path.join() and fs.readFileSync().
node -e "const path = require('path'); path.join(process.env.CONFIG_DIR, 'app.json')"
node -e "require('fs').readFileSync(process.env.CONFIG_FILE)"
