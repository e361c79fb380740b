// PlanProgress (plan_progress.h).
#include "sim/app/plan/plan_progress.h"

#include <cstdio>
#include <cstdlib>

#include "sim/base/warnings.h"

namespace trn::app {

PlanProgress::PlanProgress() : on_(sim::progress_on_stderr()), t0_(std::chrono::steady_clock::now()) {}

PlanProgress::~PlanProgress() { clear(); }

void PlanProgress::draw(const std::string& status, bool force) {
  if (!on_) return;
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0_).count();
  if (!force && last_ >= 0 && wall - last_ < 0.25) return;
  last_ = wall;
  char tail[64];
  std::snprintf(tail, sizeof tail, ", %.0f s elapsed", wall);
  const std::string text = "plan: " + status + tail;
  std::fprintf(stderr, "\r%-*s", static_cast<int>(shown_.size()), text.c_str());
  std::fflush(stderr);
  shown_ = text;
}

void PlanProgress::clear() {
  if (shown_.empty()) return;
  std::fprintf(stderr, "\r%*s\r", static_cast<int>(shown_.size()), "");
  std::fflush(stderr);
  shown_.clear();
}

void PlanProgress::enumerating(const std::string& system, int instances, int layouts, int survivors) {
  if (!on_) return;  // no status text built for a log
  draw("enumerating " + system + " x" + std::to_string(instances) + ": " + std::to_string(layouts) + " layouts, " +
           std::to_string(survivors) + " survive",
       layouts == 0);
}

void PlanProgress::searching(int bounded, int survivors, int simulated, int left, int running) {
  if (!on_) return;
  std::string s = "bounds " + std::to_string(bounded) + "/" + std::to_string(survivors) + ", evaluated " +
                  std::to_string(simulated);
  if (running > 0) s += " (" + std::to_string(running) + " running)";
  s += ", at most " + std::to_string(left) + " left";
  draw(s, running > 0);
}

void PlanProgress::line(const std::string& text) {
  const std::string status = shown_;
  clear();
  std::fputs(text.c_str(), stderr);
  if (!status.empty()) {
    std::fputs(status.c_str(), stderr);
    shown_ = status;
  }
  std::fflush(stderr);
}

}  // namespace trn::app
