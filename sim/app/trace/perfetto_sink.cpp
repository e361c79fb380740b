// PerfettoTraceSink implementation.
#include "sim/app/trace/perfetto_sink.h"

#include <cmath>
#include <nlohmann/json.hpp>

#include "perfetto_trace.pb.h"
#include "sim/base/config_node.h"

namespace trn::app {

namespace pp = perfetto::protos;

namespace {

constexpr uint32_t kSequence = 1;  // every packet is on one sequence (the interning scope)
enum InternKind { kName, kCategory, kKey };

uint64_t ns(double s) { return static_cast<uint64_t>(std::llround(std::max(0.0, s) * 1e9)); }

// One argument of a span's JSON object as a debug annotation (its name interned by the caller).
void annotate(pp::DebugAnnotation* a, const nlohmann::json& v) {
  if (v.is_boolean())
    a->set_bool_value(v.get<bool>());
  else if (v.is_number_unsigned())
    a->set_uint_value(v.get<uint64_t>());
  else if (v.is_number_integer())
    a->set_int_value(v.get<int64_t>());
  else if (v.is_number_float())
    a->set_double_value(v.get<double>());
  else if (v.is_string())
    a->set_string_value(v.get<std::string>());
  else
    a->set_legacy_json_value(v.dump());
}

}  // namespace

PerfettoTraceSink::PerfettoTraceSink(const std::string& path, std::set<std::string> categories, double t0, double t1)
    : TraceSink(path, std::move(categories), t0, t1), trace_(std::make_unique<pp::Trace>()) {}

PerfettoTraceSink::~PerfettoTraceSink() = default;

pp::TracePacket& PerfettoTraceSink::packet() {
  trace_->Clear();
  pp::TracePacket* p = trace_->add_packet();
  p->set_trusted_packet_sequence_id(kSequence);
  if (first_packet_) {
    p->set_sequence_flags(pp::TracePacket::SEQ_INCREMENTAL_STATE_CLEARED);
    first_packet_ = false;
  }
  return *p;
}

// A Trace of one packet, serialised, is the packet as field 1 of Trace: the file is the
// concatenation, which protobuf reads as one Trace with every packet.
void PerfettoTraceSink::emit() {
  const std::string bytes = trace_->SerializeAsString();
  std::fwrite(bytes.data(), 1, bytes.size(), file());
}

uint64_t PerfettoTraceSink::intern(std::map<std::string, uint64_t>& table, const std::string& s, int kind) {
  auto it = table.find(s);
  if (it != table.end()) return it->second;
  const uint64_t iid = table.size() + 1;
  table.emplace(s, iid);
  pp::InternedData* d = trace_->mutable_packet(0)->mutable_interned_data();
  if (kind == kName) {
    auto* e = d->add_event_names();
    e->set_iid(iid);
    e->set_name(s);
  } else if (kind == kCategory) {
    auto* e = d->add_event_categories();
    e->set_iid(iid);
    e->set_name(s);
  } else {
    auto* e = d->add_debug_annotation_names();
    e->set_iid(iid);
    e->set_name(s);
  }
  return iid;
}

uint64_t PerfettoTraceSink::process_track(int pid, const std::string& name) {
  auto it = processes_.find(pid);
  if (it != processes_.end() && name.empty()) return it->second;
  const uint64_t uuid = it != processes_.end() ? it->second : next_uuid_++;
  processes_[pid] = uuid;
  pp::TrackDescriptor* t = packet().mutable_track_descriptor();
  t->set_uuid(uuid);
  t->mutable_process()->set_pid(pid);
  if (!name.empty()) t->mutable_process()->set_process_name(name);
  emit();
  return uuid;
}

uint64_t PerfettoTraceSink::thread_track(int pid, int tid, const std::string& name) {
  auto it = threads_.find({pid, tid});
  if (it != threads_.end() && name.empty()) return it->second;
  const uint64_t parent = process_track(pid, "");
  const uint64_t uuid = it != threads_.end() ? it->second : next_uuid_++;
  threads_[{pid, tid}] = uuid;
  pp::TrackDescriptor* t = packet().mutable_track_descriptor();
  t->set_uuid(uuid);
  t->set_parent_uuid(parent);
  t->mutable_thread()->set_pid(pid);
  t->mutable_thread()->set_tid(tid);
  if (!name.empty()) t->mutable_thread()->set_thread_name(name);
  emit();
  return uuid;
}

void PerfettoTraceSink::write_process_name(int pid, const std::string& name) { process_track(pid, name); }

void PerfettoTraceSink::write_thread_name(int pid, int tid, const std::string& name) { thread_track(pid, tid, name); }

void PerfettoTraceSink::write_span(int pid, int tid, const std::string& name, const std::string& category, double start,
                                   double end, const std::string& args_json) {
  const uint64_t track = thread_track(pid, tid, "");
  pp::TracePacket& b = packet();
  b.set_timestamp(ns(start));
  b.set_sequence_flags(b.sequence_flags() | pp::TracePacket::SEQ_NEEDS_INCREMENTAL_STATE);
  pp::TrackEvent* e = b.mutable_track_event();
  e->set_type(pp::TrackEvent::TYPE_SLICE_BEGIN);
  e->set_track_uuid(track);
  e->set_name_iid(intern(names_, name, kName));
  e->add_category_iids(intern(categories_, category, kCategory));
  if (!args_json.empty()) {
    const nlohmann::json args = nlohmann::json::parse(args_json, nullptr, false);
    if (args.is_object())
      for (const auto& [key, value] : args.items()) {
        pp::DebugAnnotation* a = e->add_debug_annotations();
        a->set_name_iid(intern(keys_, key, kKey));
        annotate(a, value);
      }
  }
  emit();
  pp::TracePacket& x = packet();
  x.set_timestamp(ns(std::max(start, end)));
  x.mutable_track_event()->set_type(pp::TrackEvent::TYPE_SLICE_END);
  x.mutable_track_event()->set_track_uuid(track);
  emit();
}

void PerfettoTraceSink::write_counter(int pid, const std::string& name, const std::string& /*category*/, double t,
                                      double value) {
  auto it = counters_.find({pid, name});
  if (it == counters_.end()) {
    const uint64_t parent = process_track(pid, "");
    it = counters_.emplace(std::make_pair(pid, name), next_uuid_++).first;
    pp::TrackDescriptor* d = packet().mutable_track_descriptor();
    d->set_uuid(it->second);
    d->set_parent_uuid(parent);
    d->set_name(name);
    d->mutable_counter();
    emit();
  }
  pp::TracePacket& p = packet();
  p.set_timestamp(ns(t));
  pp::TrackEvent* e = p.mutable_track_event();
  e->set_type(pp::TrackEvent::TYPE_COUNTER);
  e->set_track_uuid(it->second);
  if (value == std::floor(value) && std::fabs(value) < 9e15)
    e->set_counter_value(static_cast<int64_t>(value));
  else
    e->set_double_counter_value(value);
  emit();
}

std::unique_ptr<sim::TraceSink> make_trace_sink(const std::string& format, const std::string& path,
                                                std::set<std::string> categories, double t0, double t1) {
  if (format == "perfetto") return std::make_unique<PerfettoTraceSink>(path, std::move(categories), t0, t1);
  if (format == "json" || format.empty())
    return std::make_unique<sim::JsonTraceSink>(path, std::move(categories), t0, t1);
  throw sim::ConfigError(sim::Location{"--trace-format", 0, 0}, "", "expected json or perfetto, got '" + format + "'");
}

}  // namespace trn::app
