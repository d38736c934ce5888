# requires: node
# timeout: 30
# Lowers the open-file limit to 64 and opens the same file 100 times without closing the handles.
mkdir -p data
echo 'id,total' > data/report.csv
cat > read-all.js <<'JS'
const fs = require('fs/promises');
const handles = [];
(async () => {
  for (let i = 1; i <= 100; i++) handles.push(await fs.open('data/report.csv'));
})();
JS
(ulimit -n 64; node read-all.js)
