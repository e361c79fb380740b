// TraceSink: a timeline streamed to disk while the simulation runs (never buffered whole in
// memory). Events are written to a temporary file beside the target, which is renamed into
// place by finish(); if the run fails the temporary file is removed, so no half-written trace
// is left. Filters: a set of categories and a time window (seconds of simulated time); events
// outside are dropped at the source. The format is the subclass's: JsonTraceSink writes Chrome
// JSON (here); sim/app/trace/perfetto_sink.h writes Perfetto's protobuf trace.
#pragma once

#include <cstdint>
#include <cstdio>
#include <set>
#include <string>

namespace trn::sim {

class TraceSink {
 public:
  virtual ~TraceSink();
  TraceSink(const TraceSink&) = delete;
  TraceSink& operator=(const TraceSink&) = delete;

  void process_name(int pid, const std::string& name);
  void thread_name(int pid, int tid, const std::string& name);
  /// A complete span [start, end) in seconds on (pid, tid); `args_json`: a JSON object or "".
  void span(int pid, int tid, const std::string& name, const std::string& category, double start, double end,
            const std::string& args_json = "");
  /// A counter sample at time t.
  void counter(int pid, const std::string& name, const std::string& category, double t, double value);
  bool wants(const std::string& category) const;
  uint64_t events() const { return events_; }
  /// Closes the trace and renames the file into place.
  void finish();

 protected:
  /// Opens `path` (via a temporary name). `categories` empty = all; `t0`..`t1` window.
  TraceSink(const std::string& path, std::set<std::string> categories, double t0, double t1);
  std::FILE* file() const { return f_; }
  virtual void write_process_name(int pid, const std::string& name) = 0;
  virtual void write_thread_name(int pid, int tid, const std::string& name) = 0;
  virtual void write_span(int pid, int tid, const std::string& name, const std::string& category, double start,
                          double end, const std::string& args_json) = 0;
  virtual void write_counter(int pid, const std::string& name, const std::string& category, double t, double value) = 0;
  /// The format's closing bytes, before the file is closed.
  virtual void write_end() = 0;

 private:
  std::string path_, tmp_;
  std::FILE* f_ = nullptr;
  std::set<std::string> categories_;
  double t0_, t1_;
  bool finished_ = false;
  uint64_t events_ = 0;
};

/// Chrome's trace-event JSON ({"traceEvents": [...]}), which Perfetto's UI also reads.
class JsonTraceSink final : public TraceSink {
 public:
  JsonTraceSink(const std::string& path, std::set<std::string> categories, double t0, double t1);

 private:
  void write_process_name(int pid, const std::string& name) override;
  void write_thread_name(int pid, int tid, const std::string& name) override;
  void write_span(int pid, int tid, const std::string& name, const std::string& category, double start, double end,
                  const std::string& args_json) override;
  void write_counter(int pid, const std::string& name, const std::string& category, double t, double value) override;
  void write_end() override;
  void write(const std::string& text);
  bool first_ = true;
};

/// JSON string literal with escapes.
std::string json_quote(const std::string& s);

}  // namespace trn::sim
