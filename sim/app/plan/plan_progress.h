// The plan's status line (issue 31, item 3): a plan can think for minutes before its first
// simulated point, so on a terminal a line on stderr says what it is doing from the start:
// the layouts enumerated and surviving, the schedule bounds computed, the points simulated and
// the most that may be left. It is redrawn in place at most every 0.25 s, cleared before each
// permanent line (a point's result) and at the end. Not on a terminal: nothing (the
// permanent lines stay). TRNSIM_PROGRESS_AFTER=0 draws it from the first update, for tests.
#pragma once

#include <chrono>
#include <string>

namespace trn::app {

class PlanProgress {
 public:
  PlanProgress();
  ~PlanProgress();
  PlanProgress(const PlanProgress&) = delete;
  PlanProgress& operator=(const PlanProgress&) = delete;

  /// Enumeration: `system` x `instances` reached; layouts looked at and surviving so far.
  void enumerating(const std::string& system, int instances, int layouts, int survivors);
  /// The search: schedule bounds computed of the survivors, points evaluated (simulated or reused), survivors left
  /// (neither simulated nor pruned yet), and points being simulated now.
  void searching(int bounded, int survivors, int simulated, int left, int running);
  /// Any other phase, e.g. the intervals of the best candidates.
  void phase(const std::string& status) { draw(status, true); }
  /// A permanent line on stderr (with its newline); the status line is redrawn after it.
  void line(const std::string& text);

 private:
  void draw(const std::string& status, bool force);
  void clear();
  bool on_ = false;
  std::chrono::steady_clock::time_point t0_;
  double last_ = -1;
  std::string shown_;
};

}  // namespace trn::app
