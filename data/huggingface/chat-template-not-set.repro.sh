# requires: python
# timeout: 60
# Builds a tiny tokenizer that has no chat_template (like a base model's) and calls apply_chat_template on it.
python - <<'PY'
from tokenizers import Tokenizer, models, trainers, pre_tokenizers
from transformers import PreTrainedTokenizerFast, AutoTokenizer
tok = Tokenizer(models.WordLevel(unk_token="<unk>"))
tok.pre_tokenizer = pre_tokenizers.Whitespace()
tok.train_from_iterator(["hello world"], trainers.WordLevelTrainer(special_tokens=["<unk>", "<s>", "</s>"]))
PreTrainedTokenizerFast(tokenizer_object=tok, unk_token="<unk>", bos_token="<s>", eos_token="</s>").save_pretrained("tiny-base")
t = AutoTokenizer.from_pretrained("tiny-base")
try:
    t.apply_chat_template([{"role": "user", "content": "hello"}], tokenize=False, add_generation_prompt=True)
except ValueError as e:
    print(f"ValueError: {e}")
PY
