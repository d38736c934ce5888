# requires: node unshare
# timeout: 30
# Runs a TypeScript file directly with node in a "type": "module" package (Node 20 has no type stripping).
# in_app (data/_lib/node.sh) runs a command with this folder mounted at /home/dev/app, so paths are stable.
. "$REPRO_LIB/node.sh"
echo '{"name":"app","version":"1.0.0","type":"module"}' > package.json
printf 'const port: number = 3000;\nconsole.log(port);\n' > server.ts
in_app node server.ts
