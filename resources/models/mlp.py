# SPDX-License-Identifier: Apache-2.0
# TrainScope built-in model "mlp": the transformer MLP block of the activation-memory article
# ("Activation Memory: A Deep Dive using PyTorch").
#
#   lin_0 = Linear(d_model, 4 * d_model) -> activation -> lin_1 = Linear(4 * d_model, d_model)
#   -> optional dropout
#
# This file is TorchScript source in Python syntax. TrainScope compiles it at run time and
# builds the modules' parameters in C++ (core/model/builtin_builder.cpp), so the stack frames
# of a profile point at the lines below. Submodules are called through .forward() because
# modules built in C++ have no Python __call__.


class Linear:
    def forward(self, x: Tensor) -> Tensor:
        return torch.linear(x, self.weight, self.bias)


class MLP:
    def forward(self, inputs: Tensor) -> Tensor:
        x = self.lin_0.forward(inputs)
        if self.act == "gelu":
            x = torch.gelu(x)
        elif self.act == "relu":
            x = torch.relu(x)
        else:
            x = torch.tanh(x)
        x = self.lin_1.forward(x)
        if self.dropout > 0.0:
            x = torch.dropout(x, self.dropout, self.training)
        return x
