"""A tiny GGUF model whose weights spell tool calls (agent-servers.md §1b, "bigram.gguf").

No model is downloaded or trained: the weights are set by hand so that llama.cpp's own chat
template, grammar, tool-call parser and SSE streaming are what the tests exercise. Layout:

- architecture `llama`, 2 blocks, n_embd 64, 4 heads, FFN 128, all tensors F32;
- the attention output and FFN down matrices are zero, so no block adds anything and the last
  layer sees the token's own embedding: the next token depends only on the last one;
- embeddings are one-hot: dimension 0 for "any other token", one dimension per chain key;
- the output matrix is small noise, then for each chain key its preferred successors, best
  first; after any other token the model prefers to end its turn (`<|im_end|>`);
- tokenizer `llama` (SentencePiece-style, spaces as U+2581), byte fallback, the chain tokens as
  whole tokens; the chat template is llama.cpp's shipped Qwen 2.5 template (read from the
  llama.cpp source that scripts/llama-server unpacked), so `--jinja` selects the Hermes
  `<tool_call>` format with its grammar and parser.

llama-server's grammar masks what a request's tools do not allow, so the best allowed successor
wins: with every tool the model writes `outline` with `{}`; with only readNode, `{"id":
"submit"}`; with only patch, a replaceNode patch renaming the button `submit` to "Log in".
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

import numpy as np

N_EMBD = 64
N_FF = 128
SPACE = "\u2581"

PATCH_ARGS = (
    '{"ops": [{"op": "replaceNode", "id": "submit", "node": {"type": "button", "id": "submit", '
    '"label": "Log in"}}], "summary": "Rename the sign-in button to Log in"}'
)
# token -> successors, best first (agent-servers.md §1b, the chain table)
CHAIN: dict[str, list[str]] = {
    "\n": ["<tool_call>", '{"name": "'],
    "<tool_call>": ["\n"],
    '{"name": "': ["outline", "readNode", "patch"],
    "outline": ['", "arguments": '],
    "readNode": ['", "arguments": '],
    "patch": ['", "arguments": '],
    '", "arguments": ': [PATCH_ARGS, "{"],
    "{": ["}", '"id": "'],
    '"id": "': ["submit"],
    "submit": ['"'],
    '"': ["}"],
    PATCH_ARGS: ["}"],
    "}": ["}", "</tool_call>"],
    "</tool_call>": ["<|im_end|>"],
}
SPECIALS = ["<unk>", "<s>", "</s>", "<|im_start|>", "<|im_end|>", "<|endoftext|>"]

# gguf token types (gguf.TokenType)
NORMAL, UNKNOWN, CONTROL, BYTE = 1, 2, 3, 6


def _piece(text: str) -> str:
    return text.replace(" ", SPACE)


def common_words(text: str, n: int = 1500) -> list[str]:
    """The `n` most common words and numbers of `text` (the agent's own first request), so
    that prompts tokenize to words, not characters (a shorter prompt is a faster test)."""
    return [w for w, _ in Counter(re.findall(r"[A-Za-z0-9_]+", text)).most_common(n)]


def vocabulary(words: Sequence[str] = ()) -> tuple[list[str], list[float], list[int]]:
    tokens: list[str] = []
    scores: list[float] = []
    types: list[int] = []

    def add(text: str, score: float, kind: int) -> None:
        if text not in tokens:
            tokens.append(text)
            scores.append(score)
            types.append(kind)

    for n, special in enumerate(SPECIALS):
        add(special, 0.0, UNKNOWN if n == 0 else CONTROL)
    for b in range(256):
        add(f"<0x{b:02X}>", 0.0, BYTE)
    for c in [chr(c) for c in range(33, 127)] + [SPACE, "\n", "\t"]:
        add(c, -1000.0, NORMAL)
    for key, successors in CHAIN.items():
        for text in [key, *successors]:
            if text not in SPECIALS:
                add(_piece(text), -500.0, NORMAL)
    for word in words:  # every prefix, with and without the leading space, longer scores higher
        for form in (word, SPACE + word):
            for end in range(2, len(form) + 1):
                add(form[:end], -1000.0 + end, NORMAL)
    return tokens, scores, types


def build(path: Path, template: str, *, words: Sequence[str] = (), seed: int = 42) -> Path:
    """Write the model to `path` with `template` as its chat template."""
    import gguf

    tokens, scores, types = vocabulary(words)
    index = {t: n for n, t in enumerate(tokens)}
    n_vocab = len(tokens)
    keys = list(CHAIN)
    assert len(keys) < N_EMBD
    rng = np.random.default_rng(seed)

    embd = np.zeros((n_vocab, N_EMBD), dtype=np.float32)
    embd[:, 0] = 1.0
    for d, key in enumerate(keys, start=1):
        row = index[_piece(key)]
        embd[row, 0] = 0.0
        embd[row, d] = 1.0
    output = rng.normal(0.0, 0.01, (n_vocab, N_EMBD)).astype(np.float32)
    output[index["<|im_end|>"], 0] = 10.0
    for d, key in enumerate(keys, start=1):
        for rank, successor in enumerate(CHAIN[key]):
            output[index[_piece(successor)], d] = 10.0 - rank

    writer = gguf.GGUFWriter(str(path), "llama")
    writer.add_name("proto-studio bigram test model")
    writer.add_context_length(32768)
    writer.add_embedding_length(N_EMBD)
    writer.add_block_count(2)
    writer.add_feed_forward_length(N_FF)
    writer.add_head_count(4)
    writer.add_head_count_kv(4)
    writer.add_rope_dimension_count(16)
    writer.add_layer_norm_rms_eps(1e-5)
    writer.add_file_type(gguf.LlamaFileType.ALL_F32)
    writer.add_tokenizer_model("llama")
    writer.add_tokenizer_pre("default")
    writer.add_token_list(tokens)
    writer.add_token_scores(scores)
    writer.add_token_types(types)
    writer.add_unk_token_id(0)
    writer.add_bos_token_id(1)
    writer.add_eos_token_id(index["<|im_end|>"])
    writer.add_add_bos_token(False)
    writer.add_add_space_prefix(False)
    writer.add_chat_template(template)

    def small(*shape: int) -> np.ndarray:
        return rng.normal(0.0, 0.02, shape).astype(np.float32)

    writer.add_tensor("token_embd.weight", embd)
    writer.add_tensor("output_norm.weight", np.ones(N_EMBD, dtype=np.float32))
    writer.add_tensor("output.weight", output)
    for block in range(2):
        p = f"blk.{block}."
        writer.add_tensor(p + "attn_norm.weight", np.ones(N_EMBD, dtype=np.float32))
        writer.add_tensor(p + "attn_q.weight", small(N_EMBD, N_EMBD))
        writer.add_tensor(p + "attn_k.weight", small(N_EMBD, N_EMBD))
        writer.add_tensor(p + "attn_v.weight", small(N_EMBD, N_EMBD))
        writer.add_tensor(p + "attn_output.weight", np.zeros((N_EMBD, N_EMBD), np.float32))
        writer.add_tensor(p + "ffn_norm.weight", np.ones(N_EMBD, dtype=np.float32))
        writer.add_tensor(p + "ffn_gate.weight", small(N_FF, N_EMBD))
        writer.add_tensor(p + "ffn_up.weight", small(N_FF, N_EMBD))
        writer.add_tensor(p + "ffn_down.weight", np.zeros((N_EMBD, N_FF), np.float32))
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()
    return path
