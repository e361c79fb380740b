// CompileHost: the host CPU side of the first step as a SystemC module. Compile jobs
// (durations from models/compile) run on a pool of worker slots (parallel ahead-of-time
// compilation) or one after another (JIT), longest first; the module records when each
// job ran on which worker, for the host track of a trace, and the makespan, which the
// closed-form LPT in models/compile must match (tested).
#pragma once

#include <systemc>

#include <string>
#include <vector>

#include "sim/kernel/event_queue.h"

namespace trn::hw {

struct HostJobRecord {
  std::string name;
  int worker = 0;
  double start_s = 0, end_s = 0;
};

class CompileHost : public sc_core::sc_module {
 public:
  CompileHost(sc_core::sc_module_name name, sim::EventQueue& events, int workers);
  /// Queues a job of `seconds`; jobs start longest first when the simulation starts.
  void submit(const std::string& name, double seconds);
  const std::vector<HostJobRecord>& records() const { return records_; }
  double makespan() const { return makespan_; }

 private:
  void start_of_simulation() override;
  void dispatch();
  sim::EventQueue& events_;
  int workers_;
  std::vector<std::pair<double, std::string>> queue_;
  size_t next_ = 0;
  std::vector<char> busy_;
  std::vector<HostJobRecord> records_;
  double makespan_ = 0;
};

}  // namespace trn::hw
