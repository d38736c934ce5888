# requires: python
# timeout: 60
# Batches two images of different sizes with the default DataLoader collate function.
python - <<'PY'
import torch
from torch.utils.data import DataLoader
images = [torch.randn(3, 224, 224), torch.randn(3, 200, 200)]
next(iter(DataLoader(images, batch_size=2)))
PY
