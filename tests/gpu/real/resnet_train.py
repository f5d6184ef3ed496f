"""resnet_train.py: a torchvision ResNet-18 training loop over a synthetic dataset (FakeData,
no download), with a DataLoader, that reads the loss and the accuracy back every step the way
tutorials do (loss.item(), (pred == y).sum().item()). A real workload for tests/gpu/real."""
import sys

import torch
import torchvision
from torch.utils.data import DataLoader

STEPS = 8


def main():
    torch.manual_seed(0)
    dev = torch.device("cuda")
    data = torchvision.datasets.FakeData(size=16 * STEPS, image_size=(3, 64, 64),
                                         num_classes=10,
                                         transform=torchvision.transforms.ToTensor())
    loader = DataLoader(data, batch_size=16, shuffle=False, num_workers=2)
    model = torchvision.models.resnet18(num_classes=10).to(dev)
    opt = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
    loss_fn = torch.nn.CrossEntropyLoss()
    model.train()
    steps, seen = 0, 0
    for x, y in loader:
        x = x.to(dev, non_blocking=True)
        y = y.to(dev)
        opt.zero_grad()
        out = model(x)
        loss = loss_fn(out, y)
        loss.backward()
        opt.step()
        running = loss.item()
        pred = out.argmax(dim=1)
        correct = (pred == y).sum().item()
        seen += y.numel()
        steps += 1
        del running, correct
    print(f"resnet18: {steps} steps, {seen} images")
    return 0


if __name__ == "__main__":
    sys.exit(main())
