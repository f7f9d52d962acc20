# SPDX-License-Identifier: Apache-2.0
# A GPT-style model in plain PyTorch (both torches have it): an embedding, four blocks of
# pre-norm attention and a GELU MLP in an nn.ModuleList `h`, a final norm and an output layer,
# trained by AdamW on next-token cross-entropy. advise's what-ifs are checked on it.
import torch
from torch import nn

D_MODEL, LAYERS, VOCAB, SEQUENCE = 128, 4, 1000, 64


class Block(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.ln_1 = nn.LayerNorm(d)
        self.attn = nn.MultiheadAttention(d, 4, batch_first=True)
        self.ln_2 = nn.LayerNorm(d)
        self.fc = nn.Linear(d, 4 * d)
        self.act = nn.GELU()
        self.proj = nn.Linear(4 * d, d)

    def forward(self, x):
        h = self.ln_1(x)
        x = x + self.attn(h, h, h, need_weights=False)[0]
        return x + self.proj(self.act(self.fc(self.ln_2(x))))


class GPT(nn.Module):
    def __init__(self):
        super().__init__()
        self.wte = nn.Embedding(VOCAB, D_MODEL)
        self.h = nn.ModuleList(Block(D_MODEL) for _ in range(LAYERS))
        self.ln_f = nn.LayerNorm(D_MODEL)
        self.head = nn.Linear(D_MODEL, VOCAB)

    def forward(self, idx):
        x = self.wte(idx)
        for block in self.h:
            x = block(x)
        return self.head(self.ln_f(x))


def model_provider():
    torch.manual_seed(0)
    return GPT()


def input_provider(batch_size=8):
    torch.manual_seed(1)
    return (torch.randint(0, VOCAB, (batch_size, SEQUENCE)),)


def iteration_provider(model):
    return iteration_with(model, torch.optim.AdamW(model.parameters(), lr=1e-4))


def iteration_with(model, optimizer):
    """The training step of `model` by `optimizer`: next-token cross-entropy."""
    def iteration(idx):
        optimizer.zero_grad()
        logits = model(idx)
        loss = nn.functional.cross_entropy(logits.flatten(0, 1), idx.flatten())
        loss.backward()
        optimizer.step()

    return iteration
