# requires: python
# timeout: 60
# Moves a tensor to CUDA with the CPU-only PyTorch build.
python -c 'import torch; print(torch.__version__, torch.version.cuda); torch.zeros(2).cuda()'
