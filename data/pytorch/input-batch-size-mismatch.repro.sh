# requires: python
# timeout: 60
# Passes 4 predictions and 3 targets to CrossEntropyLoss.
python - <<'PY'
import torch
logits = torch.randn(4, 10)
target = torch.tensor([1, 2, 3])
torch.nn.CrossEntropyLoss()(logits, target)
PY
