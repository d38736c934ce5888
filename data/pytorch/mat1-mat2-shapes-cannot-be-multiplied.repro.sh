# requires: python
# timeout: 60
# Feeds a batch with 3 features into nn.Linear(4, 5), which expects 4.
python - <<'PY'
import torch
layer = torch.nn.Linear(4, 5)
layer(torch.randn(2, 3))
PY
