# requires: python
# timeout: 60
# Builds a tiny GPT-2-style tokenizer without a pad token and asks it to pad a batch.
python - <<'PY'
from tokenizers import Tokenizer, models, trainers, pre_tokenizers
from transformers import PreTrainedTokenizerFast
tok = Tokenizer(models.WordLevel(unk_token="<|endoftext|>"))
tok.pre_tokenizer = pre_tokenizers.Whitespace()
tok.train_from_iterator(["hello world", "the cat sat on the mat"], trainers.WordLevelTrainer(special_tokens=["<|endoftext|>"]))
PreTrainedTokenizerFast(tokenizer_object=tok, eos_token="<|endoftext|>", unk_token="<|endoftext|>").save_pretrained("tiny-gpt")
from transformers import AutoTokenizer
t = AutoTokenizer.from_pretrained("tiny-gpt")
print("pad_token:", t.pad_token)
try:
    t(["hello world", "the cat sat on the mat"], padding=True, return_tensors="pt")
except ValueError as e:
    print(f"ValueError: {e}")
PY
