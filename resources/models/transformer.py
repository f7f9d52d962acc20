# SPDX-License-Identifier: Apache-2.0
# TrainScope built-in model "transformer": a GPT-style decoder.
#
#   token + position embeddings -> n_layers x Block -> final LayerNorm -> LM head
#   Block: x + Attention(LayerNorm(x)), then x + MLP(LayerNorm(x))   (pre-norm)
#
# Each head's causal attention (the submodule `heads`) is written out with matmul and softmax
# (attention=math, the default: LibTorch 1.13 has nothing else), or is one fused
# scaled_dot_product_attention call (attention=sdpa, LibTorch 2.0 and later; only the class
# chosen is compiled). This file is TorchScript source in Python syntax, compiled at
# run time; the parameters are built in C++ (core/model/builtin_builder.cpp), so the stack
# frames of a profile point at the lines below. Submodules are called through .forward().


class Linear:
    def forward(self, x: Tensor) -> Tensor:
        return torch.linear(x, self.weight, self.bias)


class Head:
    def forward(self, x: Tensor) -> Tensor:
        return torch.linear(x, self.weight)


class Embedding:
    def forward(self, indices: Tensor) -> Tensor:
        return torch.embedding(self.weight, indices)


class LayerNorm:
    def forward(self, x: Tensor) -> Tensor:
        return torch.layer_norm(x, [self.weight.size(0)], self.weight, self.bias, 1e-5)


class Attention:
    def forward(self, x: Tensor) -> Tensor:
        b, s, d = x.size(0), x.size(1), x.size(2)
        h = self.n_heads
        q, k, v = self.qkv.forward(x).chunk(3, -1)
        q = q.view(b, s, h, d // h).transpose(1, 2)
        k = k.view(b, s, h, d // h).transpose(1, 2)
        v = v.view(b, s, h, d // h).transpose(1, 2)
        y = self.heads.forward(q, k, v)
        y = y.transpose(1, 2).contiguous().view(b, s, d)
        return self.proj.forward(y)


class MathHeads:
    def forward(self, q: Tensor, k: Tensor, v: Tensor) -> Tensor:
        s = q.size(2)
        scores = torch.matmul(q, k.transpose(-2, -1)) * float(q.size(3)) ** -0.5
        scores = scores.masked_fill(self.causal_mask[:s, :s], float("-inf"))
        weights = torch.softmax(scores, -1)
        return torch.matmul(weights, v)


class FusedHeads:
    def forward(self, q: Tensor, k: Tensor, v: Tensor) -> Tensor:
        return torch.scaled_dot_product_attention(q, k, v, None, 0.0, True)


class MLP:
    def forward(self, x: Tensor) -> Tensor:
        x = self.lin_0.forward(x)
        if self.act == "gelu":
            x = torch.gelu(x)
        else:
            x = torch.relu(x)
        return self.lin_1.forward(x)


class Block:
    def forward(self, x: Tensor) -> Tensor:
        x = x + self.attn.forward(self.ln_1.forward(x))
        x = x + self.mlp.forward(self.ln_2.forward(x))
        return x


class GPT:
    def forward(self, tokens: Tensor) -> Tensor:
        positions = torch.arange(tokens.size(1), device=tokens.device)
        x = self.wte.forward(tokens) + self.wpe.forward(positions)
        for block in self.blocks:
            x = block.forward(x)
        x = self.ln_f.forward(x)
        return self.lm_head.forward(x)
