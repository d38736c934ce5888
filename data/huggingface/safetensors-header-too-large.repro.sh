# requires: python
# timeout: 90
# Replaces model.safetensors with a Git LFS pointer file and with a truncated file, then loads them with safetensors and transformers.
python - <<'PY'
import shutil
from transformers import GPT2Config, GPT2LMHeadModel, AutoModelForCausalLM
from safetensors.torch import load_file
GPT2LMHeadModel(GPT2Config(vocab_size=64, n_embd=16, n_layer=1, n_head=2, bos_token_id=0, eos_token_id=0)).save_pretrained("tiny-gpt2")
shutil.copytree("tiny-gpt2", "lfs-pointer")
with open("lfs-pointer/model.safetensors", "w") as f:
    f.write("version https://git-lfs.github.com/spec/v1\n"
            "oid sha256:4c5d1b0a3c1f7d2e9b8a6f5e4d3c2b1a0f9e8d7c6b5a4f3e2d1c0b9a8f7e6d5c\n"
            "size 548105171\n")
with open("truncated.safetensors", "wb") as f:
    f.write(open("tiny-gpt2/model.safetensors", "rb").read()[:4])
for name, call in [("load_file(LFS pointer)", lambda: load_file("lfs-pointer/model.safetensors")),
                   ("from_pretrained(LFS pointer)", lambda: AutoModelForCausalLM.from_pretrained("lfs-pointer")),
                   ("load_file(4-byte file)", lambda: load_file("truncated.safetensors"))]:
    try:
        call()
    except Exception as e:
        print(f"[{name}] {type(e).__module__}.{type(e).__name__}: {e}")
PY
