# requires: node
# timeout: 30
# Rejects promises without a .catch(): once with a string reason, once with an Error.
cat > reject-string.js <<'JS'
async function connect() { throw 'connection refused by database'; }
connect();
JS
node reject-string.js
cat > reject-error.js <<'JS'
async function loadUser() { const user = undefined; return user.name; }
loadUser().then((name) => console.log(name));
JS
node reject-error.js
# Node 14 and older only warned; --unhandled-rejections=warn restores that behaviour and its wording.
node --unhandled-rejections=warn reject-string.js
