// PerfettoTraceSink: the timeline as Perfetto's protobuf trace (`trnsim run --trace-format
// perfetto`; docs/workloads.md, "The trace"), written with the schema of perfetto_trace.proto.
// Tracks: a process track per chip or fabric (the JSON's pid), a thread track per engine queue
// or link (pid, tid), a counter track per counter name; slices as BEGIN and END events, counters
// as COUNTER events; names, categories and argument keys interned on one packet sequence.
#pragma once

#include <map>
#include <memory>
#include <set>
#include <string>
#include <utility>

#include "sim/base/trace_sink.h"

namespace perfetto::protos {
class Trace;
class TracePacket;
}  // namespace perfetto::protos

namespace trn::app {

class PerfettoTraceSink final : public sim::TraceSink {
 public:
  PerfettoTraceSink(const std::string& path, std::set<std::string> categories, double t0, double t1);
  ~PerfettoTraceSink() override;

 private:
  void write_process_name(int pid, const std::string& name) override;
  void write_thread_name(int pid, int tid, const std::string& name) override;
  void write_span(int pid, int tid, const std::string& name, const std::string& category, double start, double end,
                  const std::string& args_json) override;
  void write_counter(int pid, const std::string& name, const std::string& category, double t, double value) override;
  void write_end() override {}

  uint64_t process_track(int pid, const std::string& name);
  uint64_t thread_track(int pid, int tid, const std::string& name);
  uint64_t intern(std::map<std::string, uint64_t>& table, const std::string& s, int kind);
  perfetto::protos::TracePacket& packet();
  void emit();

  std::unique_ptr<perfetto::protos::Trace> trace_;  // one packet at a time
  std::map<int, uint64_t> processes_;
  std::map<std::pair<int, int>, uint64_t> threads_;
  std::map<std::pair<int, std::string>, uint64_t> counters_;
  std::map<std::string, uint64_t> names_, categories_, keys_;
  uint64_t next_uuid_ = 1;
  bool first_packet_ = true;
};

/// The sink for `format`: "json" (Chrome JSON) or "perfetto".
std::unique_ptr<sim::TraceSink> make_trace_sink(const std::string& format, const std::string& path,
                                                std::set<std::string> categories, double t0, double t1);

}  // namespace trn::app
