# requires: python
# timeout: 60
# Saves a tiny T5 (encoder-decoder) config and loads it with AutoModelForCausalLM, which has no T5 entry, then with AutoModelForSeq2SeqLM.
python - <<'PY'
from transformers import T5Config, AutoModelForCausalLM, AutoModelForSeq2SeqLM
T5Config(vocab_size=64, d_model=16, d_ff=32, num_layers=1, num_heads=2, d_kv=8).save_pretrained("tiny-t5")
try:
    AutoModelForCausalLM.from_pretrained("tiny-t5")
except ValueError as e:
    print(f"ValueError: {str(e)[:300]}...")
m = AutoModelForSeq2SeqLM.from_config(T5Config.from_pretrained("tiny-t5"))
print("AutoModelForSeq2SeqLM:", type(m).__name__)
PY
