# SPDX-License-Identifier: Apache-2.0
"""A GPT-style model (4 blocks of attention and MLP), compiled by torch.compile and trained with
AdamW and gradient clipping under trainscope.profile: the compiled step of docs/python.md.

    python3 docs/examples/compiled_gpt.py [PREFIX]
"""
import sys

import torch
import torch.nn as nn
import torch.nn.functional as F

import trainscope


class Attention(nn.Module):
    def __init__(self, d, heads):
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(d, 3 * d)
        self.proj = nn.Linear(d, d)

    def forward(self, x):
        b, t, d = x.shape
        q, k, v = self.qkv(x).split(d, dim=2)
        q, k, v = (z.view(b, t, self.heads, d // self.heads).transpose(1, 2) for z in (q, k, v))
        y = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        return self.proj(y.transpose(1, 2).reshape(b, t, d))


class Block(nn.Module):
    def __init__(self, d, heads):
        super().__init__()
        self.ln1 = nn.LayerNorm(d)
        self.attn = Attention(d, heads)
        self.ln2 = nn.LayerNorm(d)
        self.mlp = nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(), nn.Linear(4 * d, d))

    def forward(self, x):
        x = x + self.attn(self.ln1(x))
        return x + self.mlp(self.ln2(x))


class GPT(nn.Module):
    def __init__(self, vocab=256, d=64, heads=4, blocks=4, context=32):
        super().__init__()
        self.tok = nn.Embedding(vocab, d)
        self.pos = nn.Embedding(context, d)
        self.blocks = nn.ModuleList(Block(d, heads) for _ in range(blocks))
        self.ln = nn.LayerNorm(d)
        self.head = nn.Linear(d, vocab, bias=False)

    def forward(self, idx):
        x = self.tok(idx) + self.pos(torch.arange(idx.shape[1]))
        for block in self.blocks:
            x = block(x)
        return self.head(self.ln(x))


def main():
    torch.manual_seed(0)
    model = GPT()
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
    compiled = torch.compile(model)
    batches = [torch.randint(0, 256, (8, 33)) for _ in range(6)]
    prefix = sys.argv[1] if len(sys.argv) > 1 else "compiled_gpt"
    with trainscope.profile(prefix, model=compiled, optimizer=optimizer, warmup=2,
                            active=4) as prof:
        for batch in batches:
            logits = compiled(batch[:, :-1])
            F.cross_entropy(logits.reshape(-1, 256), batch[:, 1:].reshape(-1)).backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            optimizer.step()
            optimizer.zero_grad()
            prof.step()
    print(prof.figures["summary"], end="")


if __name__ == "__main__":
    main()
