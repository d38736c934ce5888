# requires: node
# timeout: 60
# Caps the old-generation heap at 16 MiB and keeps allocating until V8 gives up.
node --max-old-space-size=16 -e "const cache = []; while (true) cache.push({ id: cache.length, rows: new Array(100).fill('x') });"
