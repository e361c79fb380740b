// TraceSink: a Chrome / Perfetto JSON trace streamed to disk while the simulation runs
// (never buffered whole in memory). Events are written to a temporary file beside the
// target, which is renamed into place by finish(); if the run fails the temporary file
// is removed, so no half-written trace is left. Filters: a set of categories and a time
// window (seconds of simulated time); events outside are dropped at the source.
#pragma once

#include <cstdint>
#include <cstdio>
#include <set>
#include <string>

namespace trn::sim {

class TraceSink {
 public:
  /// Opens `path` (via a temporary name). `categories` empty = all; `t0`..`t1` window.
  TraceSink(const std::string& path, std::set<std::string> categories, double t0, double t1);
  ~TraceSink();
  TraceSink(const TraceSink&) = delete;
  TraceSink& operator=(const TraceSink&) = delete;

  void process_name(int pid, const std::string& name);
  void thread_name(int pid, int tid, const std::string& name);
  /// A complete span [start, end) in seconds on (pid, tid).
  void span(int pid, int tid, const std::string& name, const std::string& category, double start, double end,
            const std::string& args_json = "");
  /// A counter sample at time t.
  void counter(int pid, const std::string& name, const std::string& category, double t, double value);
  bool wants(const std::string& category) const;
  uint64_t events() const { return events_; }
  /// Closes the JSON and renames the file into place.
  void finish();

 private:
  void write(const std::string& text);
  std::string path_, tmp_;
  std::FILE* f_ = nullptr;
  std::set<std::string> categories_;
  double t0_, t1_;
  bool first_ = true, finished_ = false;
  uint64_t events_ = 0;
};

/// JSON string literal with escapes.
std::string json_quote(const std::string& s);

}  // namespace trn::sim
