# requires: python
# timeout: 60
# Uses a tensor with three elements in an if statement.
python - <<'PY'
import torch
pred = torch.tensor([0.2, 0.7, 0.9])
if pred > 0.5:
    print("positive")
PY
