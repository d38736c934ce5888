# requires: python
# timeout: 90
# Saves a tiny GPT-2 model and loads it with device_map="auto" in an environment where accelerate is not installed.
python - <<'PY'
import importlib.util
print("accelerate installed:", importlib.util.find_spec("accelerate") is not None)
from transformers import GPT2Config, GPT2LMHeadModel, AutoModelForCausalLM
GPT2LMHeadModel(GPT2Config(vocab_size=64, n_embd=16, n_layer=1, n_head=2, bos_token_id=0, eos_token_id=0)).save_pretrained("tiny-gpt2")
try:
    AutoModelForCausalLM.from_pretrained("tiny-gpt2", device_map="auto")
except ValueError as e:
    print(f"ValueError: {e}")
PY
