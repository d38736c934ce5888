# requires: node
# timeout: 30
# A recursive function with a missing base case, then a getter that calls itself.
cat > walk.js <<'JS'
function countNodes(node) {
  return 1 + countNodes(node.child);   // no "if (!node) return 0"
}
const root = { child: null };
root.child = root;                     // a cycle
countNodes(root);
JS
node walk.js
cat > getter.js <<'JS'
class User {
  get name() { return this.name; }     // should be this._name
}
console.log(new User().name);
JS
node getter.js
