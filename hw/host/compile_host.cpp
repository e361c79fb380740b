// CompileHost implementation.
#include "hw/host/compile_host.h"

#include <algorithm>

namespace trn::hw {

CompileHost::CompileHost(sc_core::sc_module_name name, sim::EventQueue& events, int workers)
    : sc_core::sc_module(name),
      events_(events),
      workers_(std::max(1, workers)),
      busy_(static_cast<size_t>(workers_), 0) {}

void CompileHost::submit(const std::string& name, double seconds) { queue_.push_back({seconds, name}); }

void CompileHost::start_of_simulation() {
  std::stable_sort(queue_.begin(), queue_.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  events_.at(0.0, [this] { dispatch(); });
}

void CompileHost::dispatch() {
  for (int w = 0; w < workers_ && next_ < queue_.size(); ++w) {
    if (busy_[static_cast<size_t>(w)]) continue;
    busy_[static_cast<size_t>(w)] = 1;
    const auto& job = queue_[next_++];
    HostJobRecord r{job.second, w, sim::now_s(), sim::now_s() + job.first};
    records_.push_back(r);
    events_.at(job.first, [this, w] {
      busy_[static_cast<size_t>(w)] = 0;
      makespan_ = std::max(makespan_, sim::now_s());
      dispatch();
    });
  }
}

}  // namespace trn::hw
