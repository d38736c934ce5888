# requires: node npm
# timeout: 60
# Runs npm's bundled node-gyp on a native addon with a PATH that contains node but no Python.
gyp="$(dirname "$(dirname "$(readlink -f "$(command -v npm)")")")/node_modules/node-gyp/bin/node-gyp.js"
mkdir -p addon bin
ln -s "$(command -v node)" bin/node
echo '{"name":"addon","version":"1.0.0"}' > addon/package.json
echo "{'targets':[{'target_name':'addon','sources':['addon.cc']}]}" > addon/binding.gyp
cd addon
env -u PYTHON -u npm_config_python PATH="$PWD/../bin" node "$gyp" configure
