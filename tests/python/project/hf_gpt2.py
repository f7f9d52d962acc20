# SPDX-License-Identifier: Apache-2.0
# transformers' GPT-2 built from its configuration (random weights, nothing downloaded) in
# float32, with its defaults for training: dropout, and the key/value cache on (use_cache). A
# loop as its users write it: AdamW on the loss the model computes from its labels. advise's
# what-ifs are checked on it (PyTorch 2.x, where transformers is).
import torch
from transformers import GPT2Config, GPT2LMHeadModel

VOCAB, SEQUENCE = 1000, 64


def model_provider():
    torch.manual_seed(0)
    config = GPT2Config(n_layer=2, n_embd=128, n_head=4, vocab_size=VOCAB, n_positions=128,
                        bos_token_id=0, eos_token_id=0)
    return GPT2LMHeadModel(config)


def input_provider(batch_size=4):
    torch.manual_seed(1)
    return (torch.randint(0, VOCAB, (batch_size, SEQUENCE)),)


def iteration_provider(model):
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)

    def iteration(ids):
        optimizer.zero_grad()
        model(input_ids=ids, labels=ids).loss.backward()
        optimizer.step()

    return iteration
