# SPDX-License-Identifier: Apache-2.0
# torchvision's ResNet-18 (random weights, ten classes) on 64x64 images, SGD with momentum: its
# convolutions' weights are cast for bfloat16 under autocast, and their gradients cast back.
import torch
import torchvision


def model_provider():
    torch.manual_seed(0)
    return torchvision.models.resnet18(num_classes=10)


def input_provider(batch_size=8):
    torch.manual_seed(1)
    return (torch.randn(batch_size, 3, 64, 64), torch.randint(0, 10, (batch_size,)))


def iteration_provider(model):
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)

    def iteration(x, y):
        optimizer.zero_grad()
        torch.nn.functional.cross_entropy(model(x), y).backward()
        optimizer.step()
    return iteration
