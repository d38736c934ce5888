# requires: node
# timeout: 30
# Calls the built-in fetch() with a relative URL, as browser code does, on the server.
echo "const res = await fetch('/api/users'); console.log(await res.json());" > page.mjs
node page.mjs
