# requires: node
# timeout: 30
# Uses __dirname in a .js file of a package with "type": "module".
echo '{"name":"app","version":"1.0.0","type":"module"}' > package.json
echo "import path from 'node:path'; console.log(path.join(__dirname, 'public'));" > server.js
node server.js
echo "console.log(__filename);" > name.js
node name.js
