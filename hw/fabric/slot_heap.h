// SlotHeap: an indexed 4-ary min-heap of (key, slot), at most one entry per slot, with
// in-place key updates and removal in O(log n). FlowNetwork keeps finish times in it, so
// a rate change moves the flow's entry instead of leaving a stale one behind.
#pragma once

#include <cstdint>
#include <vector>

namespace trn::hw {

class SlotHeap {
 public:
  struct Node {
    double key;
    uint32_t slot;
  };
  static constexpr uint32_t kAbsent = 0xffffffffu;

  bool empty() const { return heap_.empty(); }
  size_t size() const { return heap_.size(); }
  const Node& top() const { return heap_.front(); }
  bool contains(uint32_t slot) const { return slot < pos_.size() && pos_[slot] != kAbsent; }

  /// Inserts `slot` with `key`, or moves it to `key` if present.
  void set(uint32_t slot, double key) {
    if (slot >= pos_.size()) pos_.resize(slot + 1, kAbsent);
    uint32_t i = pos_[slot];
    if (i == kAbsent) {
      heap_.push_back(Node{key, slot});
      up(static_cast<uint32_t>(heap_.size() - 1));
      return;
    }
    const Node old = heap_[i];
    heap_[i].key = key;
    if (less(heap_[i], old))
      up(i);
    else
      down(i);
  }

  /// Removes `slot` if present.
  void erase(uint32_t slot) {
    if (!contains(slot)) return;
    const uint32_t i = pos_[slot];
    pos_[slot] = kAbsent;
    const uint32_t last = static_cast<uint32_t>(heap_.size() - 1);
    if (i == last) {
      heap_.pop_back();
      return;
    }
    const Node moved = heap_[last];
    heap_.pop_back();
    heap_[i] = moved;
    pos_[moved.slot] = i;
    if (i > 0 && less(moved, heap_[(i - 1) / kArity]))
      up(i);
    else
      down(i);
  }

  /// Calls fn(node) for every entry with key <= limit (any order; the heap is not changed).
  template <class Fn>
  void for_each_at_most(double limit, Fn&& fn) const {
    if (heap_.empty() || heap_[0].key > limit) return;
    stack_.clear();
    stack_.push_back(0);
    while (!stack_.empty()) {
      const uint32_t i = stack_.back();
      stack_.pop_back();
      fn(heap_[i]);
      const size_t c0 = static_cast<size_t>(i) * kArity + 1;
      for (size_t c = c0; c < c0 + kArity && c < heap_.size(); ++c)
        if (heap_[c].key <= limit) stack_.push_back(static_cast<uint32_t>(c));
    }
  }

 private:
  static constexpr uint32_t kArity = 4;
  static bool less(const Node& a, const Node& b) { return a.key != b.key ? a.key < b.key : a.slot < b.slot; }
  void up(uint32_t i) {
    const Node n = heap_[i];
    while (i > 0) {
      const uint32_t p = (i - 1) / kArity;
      if (!less(n, heap_[p])) break;
      heap_[i] = heap_[p];
      pos_[heap_[i].slot] = i;
      i = p;
    }
    heap_[i] = n;
    pos_[n.slot] = i;
  }
  void down(uint32_t i) {
    const Node n = heap_[i];
    const size_t size = heap_.size();
    for (;;) {
      const size_t c0 = static_cast<size_t>(i) * kArity + 1;
      if (c0 >= size) break;
      size_t best = c0;
      const size_t end = c0 + kArity < size ? c0 + kArity : size;
      for (size_t c = c0 + 1; c < end; ++c)
        if (less(heap_[c], heap_[best])) best = c;
      if (!less(heap_[best], n)) break;
      heap_[i] = heap_[best];
      pos_[heap_[i].slot] = i;
      i = static_cast<uint32_t>(best);
    }
    heap_[i] = n;
    pos_[n.slot] = i;
  }

  std::vector<Node> heap_;
  std::vector<uint32_t> pos_;  // slot -> index in heap_, kAbsent if not in the heap
  mutable std::vector<uint32_t> stack_;
};

}  // namespace trn::hw
