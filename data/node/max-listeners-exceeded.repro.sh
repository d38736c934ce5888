# requires: node
# timeout: 30
# Adds an event listener on every "request" to one shared emitter, so the 11th listener triggers the leak warning.
cat > leak.js <<'JS'
const { EventEmitter } = require('events');
const bus = new EventEmitter();
function handleRequest(id) {
  bus.on('config-changed', () => console.log('reload for request', id));
}
for (let id = 1; id <= 11; id++) handleRequest(id);
JS
node leak.js
