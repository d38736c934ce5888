# requires: python
# timeout: 60
# Uses class label 5 with a 5-class output (valid labels are 0..4).
python - <<'PY'
import torch
logits = torch.randn(4, 5)
target = torch.tensor([1, 2, 3, 5])
torch.nn.CrossEntropyLoss()(logits, target)
PY
