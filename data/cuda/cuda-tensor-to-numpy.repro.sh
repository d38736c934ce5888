# requires: python
# timeout: 60
# Calls .numpy() on a tensor that is not on the CPU (a meta tensor: the CPU-only build has no CUDA device; the check is the same).
python -c 'import torch; torch.empty(3, device="meta").numpy()'
