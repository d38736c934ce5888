# requires: node
# timeout: 30
# Passes a Windows-style absolute path (C:/...) to import(), which the ESM loader parses as a URL with scheme "c:".
cat > load.mjs <<'JS'
const configPath = 'C:/Users/dev/app/config.js';
await import(configPath);
JS
node load.mjs
