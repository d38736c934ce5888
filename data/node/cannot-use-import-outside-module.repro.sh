# requires: node
# timeout: 30
# Runs a .js file using `import` in a package whose package.json says "type": "commonjs".
echo '{"name":"app","version":"1.0.0","type":"commonjs"}' > package.json
cat > index.js <<'JS'
import express from 'express';
console.log(typeof express);
JS
node index.js
# The same mismatch with an `export` statement first.
echo 'export default function handler() {}' > handler.js
node handler.js
