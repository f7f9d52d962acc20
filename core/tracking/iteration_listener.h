// SPDX-License-Identifier: Apache-2.0
// The points of a training iteration that observers care about. The workload calls them in
// order: forwardBegins (after the gradients were cleared), backwardBegins (after the loss),
// backwardEnded, iterationEnded (after the optimizer step).
#pragma once

#include <vector>

namespace trainscope {

class IterationListener {
  public:
    virtual ~IterationListener() = default;
    virtual void forwardBegins() {}
    virtual void backwardBegins() {}
    virtual void backwardEnded() {}
    virtual void iterationEnded() {}
    // The blocks of the gradients that a backward pass starts from: the loss's gradient, which
    // backward() makes (torch.ones_like) just before the autograd engine begins. They are not
    // what the forward pass kept.
    virtual void backwardStartsFrom(const std::vector<const void*>& /*gradients*/) {}
};

// Forwards each call to several listeners, in order.
class IterationListeners : public IterationListener {
  public:
    explicit IterationListeners(std::vector<IterationListener*> listeners)
        : listeners_(std::move(listeners)) {}
    void forwardBegins() override {
        for (auto* l : listeners_)
            l->forwardBegins();
    }
    void backwardBegins() override {
        for (auto* l : listeners_)
            l->backwardBegins();
    }
    void backwardEnded() override {
        for (auto* l : listeners_)
            l->backwardEnded();
    }
    void iterationEnded() override {
        for (auto* l : listeners_)
            l->iterationEnded();
    }
    void backwardStartsFrom(const std::vector<const void*>& gradients) override {
        for (auto* l : listeners_)
            l->backwardStartsFrom(gradients);
    }

  private:
    std::vector<IterationListener*> listeners_;
};

}  // namespace trainscope
