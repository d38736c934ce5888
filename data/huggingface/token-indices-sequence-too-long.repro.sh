# requires: python
# timeout: 60
# Builds a tiny tokenizer with model_max_length=8 and encodes a 12-token text without truncation.
python - <<'PY'
from tokenizers import Tokenizer, models, trainers, pre_tokenizers
from transformers import PreTrainedTokenizerFast, AutoTokenizer
tok = Tokenizer(models.WordLevel(unk_token="[UNK]"))
tok.pre_tokenizer = pre_tokenizers.Whitespace()
tok.train_from_iterator(["the cat sat on the mat"], trainers.WordLevelTrainer(special_tokens=["[UNK]"]))
PreTrainedTokenizerFast(tokenizer_object=tok, unk_token="[UNK]", model_max_length=8).save_pretrained("tiny")
t = AutoTokenizer.from_pretrained("tiny")
ids = t("the cat sat on the mat the cat sat on the mat")["input_ids"]
print("tokens:", len(ids))
ids = t("the cat sat on the mat the cat sat on the mat", truncation=True)["input_ids"]
print("with truncation=True:", len(ids))
PY
