# requires: node
# timeout: 30
# Passes flags this Node.js (20.x) does not know, on the command line and in NODE_OPTIONS.
node --experimental-strip-types server.ts
NODE_OPTIONS="--experimental-strip-types" node -e "1"
