# requires: python
# timeout: 60
# Feeds a 1-channel (grayscale) image into a conv layer built for 3-channel RGB input.
python - <<'PY'
import torch
conv = torch.nn.Conv2d(3, 64, kernel_size=7)
conv(torch.randn(1, 1, 224, 224))
PY
