# SPDX-License-Identifier: Apache-2.0
# TrainScope built-in model "resnet": a ResNet-style image classifier with basic blocks.
#
#   stem: 7x7 conv (stride 2), BatchNorm, ReLU, 3x3 max pool (stride 2)
#   4 stages of basic blocks (widths w, 2w, 4w, 8w); stages 2-4 start with a block that halves
#   the resolution and projects the shortcut with a 1x1 conv
#   global average pool, fully connected layer to the classes
#
# This file is TorchScript source in Python syntax, compiled at run time; the parameters are
# built in C++ (core/model/builtin_builder.cpp), so the stack frames of a profile point at the
# lines below. Submodules are called through .forward().


class Conv2d:
    def forward(self, x: Tensor) -> Tensor:
        return torch.conv2d(x, self.weight, None, [self.stride, self.stride],
                            [self.padding, self.padding])


class BatchNorm2d:
    def forward(self, x: Tensor) -> Tensor:
        return torch.batch_norm(x, self.weight, self.bias, self.running_mean, self.running_var,
                                self.training, 0.1, 1e-5, False)


class Linear:
    def forward(self, x: Tensor) -> Tensor:
        return torch.linear(x, self.weight, self.bias)


class BasicBlock:
    def forward(self, x: Tensor) -> Tensor:
        out = torch.relu(self.bn1.forward(self.conv1.forward(x)))
        out = self.bn2.forward(self.conv2.forward(out))
        return torch.relu(out + x)


class DownBlock:
    def forward(self, x: Tensor) -> Tensor:
        out = torch.relu(self.bn1.forward(self.conv1.forward(x)))
        out = self.bn2.forward(self.conv2.forward(out))
        shortcut = self.down_bn.forward(self.down_conv.forward(x))
        return torch.relu(out + shortcut)


class ResNet:
    def forward(self, images: Tensor) -> Tensor:
        x = torch.relu(self.bn.forward(self.conv.forward(images)))
        x = torch.max_pool2d(x, [3, 3], [2, 2], [1, 1])
        for block in self.layer1:
            x = block.forward(x)
        x = self.layer2_0.forward(x)
        for block in self.layer2:
            x = block.forward(x)
        x = self.layer3_0.forward(x)
        for block in self.layer3:
            x = block.forward(x)
        x = self.layer4_0.forward(x)
        for block in self.layer4:
            x = block.forward(x)
        x = torch.adaptive_avg_pool2d(x, [1, 1]).flatten(1)
        return self.fc.forward(x)
