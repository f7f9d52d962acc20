# SPDX-License-Identifier: Apache-2.0
# A small language model with its output layer tied to its embedding, trained by AdamW under
# bf16 autocast with gradient clipping: an entry point in Skyline's contract.
import torch
from torch import nn

from helpers import activate


class TiedLM(nn.Module):
    def __init__(self, vocab=64, width=32):
        super().__init__()
        self.wte = nn.Embedding(vocab, width)
        self.fc = nn.Linear(width, width)
        self.head = nn.Linear(width, vocab, bias=False)
        self.head.weight = self.wte.weight  # tied: one tensor, two names

    def forward(self, tokens):
        x = self.wte(tokens)
        x = activate(self.fc(x))
        return self.head(x)


def skyline_model_provider():
    torch.manual_seed(0)
    return TiedLM()


def skyline_input_provider(batch_size=4):
    return (torch.randint(0, 64, (batch_size, 8)),)


def skyline_iteration_provider(model):
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)

    def iteration(tokens):
        optimizer.zero_grad()
        with torch.autocast(tokens.device.type, dtype=torch.bfloat16):
            logits = model(tokens)
        loss = nn.functional.cross_entropy(logits.float().flatten(0, 1), tokens.flatten())
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)  # trainscope-test: clipping
        optimizer.step()  # trainscope-test: optimizer-step

    return iteration
