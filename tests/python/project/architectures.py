# SPDX-License-Identifier: Apache-2.0
# Real architectures built from their configurations with random weights (nothing is
# downloaded), small enough for the CPU: transformers' GPT-2 (its LM head tied to the token
# embedding) and Llama (RMSNorm, rotary embeddings, SwiGLU, grouped-query attention), and timm's
# ViT. Each is trained by AdamW under bf16 autocast with gradient clipping. An entry point in
# Skyline's contract: TRAINSCOPE_TEST_ARCHITECTURE names the model.
import os

import torch

ARCHITECTURE = os.environ.get("TRAINSCOPE_TEST_ARCHITECTURE", "gpt2")


def build(architecture, batch=2):
    """The model and a batch of its inputs (tokens, or images and labels)."""
    torch.manual_seed(0)
    if architecture == "gpt2":
        from transformers import GPT2Config, GPT2LMHeadModel
        config = GPT2Config(vocab_size=256, n_positions=32, n_embd=64, n_layer=2, n_head=4)
        return GPT2LMHeadModel(config), (torch.randint(0, 256, (batch, 16)),)
    if architecture == "llama":
        from transformers import LlamaConfig, LlamaForCausalLM
        config = LlamaConfig(vocab_size=256, hidden_size=64, intermediate_size=128,
                             num_hidden_layers=2, num_attention_heads=4, num_key_value_heads=2,
                             max_position_embeddings=32)
        return LlamaForCausalLM(config), (torch.randint(0, 256, (batch, 16)),)
    if architecture == "vit":
        import timm
        model = timm.create_model("vit_tiny_patch16_224", pretrained=False, img_size=32,
                                  patch_size=8, num_classes=10)
        return model, (torch.randn(batch, 3, 32, 32), torch.randint(0, 10, (batch,)))
    raise ValueError(f"no architecture {architecture}")


def loss_of(model, inputs):
    if len(inputs) == 1:  # a language model: the next tokens
        return model(input_ids=inputs[0], labels=inputs[0]).loss  # trainscope-test: lm-forward
    images, labels = inputs
    return torch.nn.functional.cross_entropy(model(images), labels)  # trainscope-test: vit-forward


def step_of(model):
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)

    def step(*inputs):
        optimizer.zero_grad()
        with torch.autocast(inputs[0].device.type, dtype=torch.bfloat16):
            loss = loss_of(model, inputs)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        optimizer.step()

    step.optimizer = optimizer
    return step


def skyline_model_provider():
    return build(ARCHITECTURE)[0]


def skyline_input_provider(batch_size=2):
    return build(ARCHITECTURE, batch_size)[1]


def skyline_iteration_provider(model):
    return step_of(model)
