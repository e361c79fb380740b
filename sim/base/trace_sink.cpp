// TraceSink implementation.
#include "sim/base/trace_sink.h"

#include <unistd.h>

#include <cmath>

#include "sim/base/config_node.h"
#include "sim/base/output_file.h"

namespace trn::sim {

std::string json_quote(const std::string& s) {
  std::string o = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') o += '\\';
    if (static_cast<unsigned char>(c) < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", c);
      o += buf;
      continue;
    }
    o += c;
  }
  return o + "\"";
}

TraceSink::TraceSink(const std::string& path, std::set<std::string> categories, double t0, double t1)
    : path_(path),
      tmp_(path + ".tmp." + std::to_string(::getpid())),
      categories_(std::move(categories)),
      t0_(t0),
      t1_(t1) {
  register_temp_file(tmp_);
  f_ = std::fopen(tmp_.c_str(), "wb");
  if (!f_) {
    unregister_temp_file(tmp_);
    throw ConfigError(Location{"--trace " + path, 0, 0}, "", "cannot open for writing");
  }
}

JsonTraceSink::JsonTraceSink(const std::string& path, std::set<std::string> categories, double t0, double t1)
    : TraceSink(path, std::move(categories), t0, t1) {
  std::fputs("{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n", file());
}

TraceSink::~TraceSink() {
  if (f_) std::fclose(f_);
  if (!finished_) std::remove(tmp_.c_str());
  unregister_temp_file(tmp_);
}

bool TraceSink::wants(const std::string& category) const {
  return categories_.empty() || categories_.count(category) > 0;
}

void TraceSink::process_name(int pid, const std::string& name) {
  write_process_name(pid, name);
  ++events_;
}

void TraceSink::thread_name(int pid, int tid, const std::string& name) {
  write_thread_name(pid, tid, name);
  ++events_;
}

void TraceSink::span(int pid, int tid, const std::string& name, const std::string& category, double start, double end,
                     const std::string& args_json) {
  if (!wants(category) || end < t0_ || start > t1_) return;
  write_span(pid, tid, name, category, start, end, args_json);
  ++events_;
}

void TraceSink::counter(int pid, const std::string& name, const std::string& category, double t, double value) {
  if (!wants(category) || t < t0_ || t > t1_ || !std::isfinite(value)) return;
  write_counter(pid, name, category, t, value);
  ++events_;
}

void JsonTraceSink::write(const std::string& text) {
  if (!first_) std::fputs(",\n", file());
  std::fputs(text.c_str(), file());
  first_ = false;
}

void JsonTraceSink::write_process_name(int pid, const std::string& name) {
  write("{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":" + std::to_string(pid) +
        ",\"args\":{\"name\":" + json_quote(name) + "}}");
}

void JsonTraceSink::write_thread_name(int pid, int tid, const std::string& name) {
  write("{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":" + std::to_string(pid) + ",\"tid\":" + std::to_string(tid) +
        ",\"args\":{\"name\":" + json_quote(name) + "}}");
}

namespace {
std::string us(double s) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.6f", s * 1e6);
  return buf;
}
}  // namespace

void JsonTraceSink::write_span(int pid, int tid, const std::string& name, const std::string& category, double start,
                               double end, const std::string& args_json) {
  std::string e = "{\"ph\":\"X\",\"name\":" + json_quote(name) + ",\"cat\":" + json_quote(category) +
                  ",\"pid\":" + std::to_string(pid) + ",\"tid\":" + std::to_string(tid) + ",\"ts\":" + us(start) +
                  ",\"dur\":" + us(std::max(0.0, end - start));
  if (!args_json.empty()) e += ",\"args\":" + args_json;
  write(e + "}");
}

void JsonTraceSink::write_counter(int pid, const std::string& name, const std::string& category, double t,
                                  double value) {
  char v[48];
  std::snprintf(v, sizeof v, "%.6g", value);
  write("{\"ph\":\"C\",\"name\":" + json_quote(name) + ",\"cat\":" + json_quote(category) +
        ",\"pid\":" + std::to_string(pid) + ",\"ts\":" + us(t) + ",\"args\":{\"value\":" + v + "}}");
}

void JsonTraceSink::write_end() { std::fputs("\n]}\n", file()); }

void TraceSink::finish() {
  if (finished_ || !f_) return;
  write_end();
  std::fclose(f_);
  f_ = nullptr;
  if (std::rename(tmp_.c_str(), path_.c_str()) != 0) {
    std::remove(tmp_.c_str());
    throw ConfigError(Location{"--trace " + path_, 0, 0}, "", "cannot rename the temporary file into place");
  }
  finished_ = true;
  unregister_temp_file(tmp_);
}

}  // namespace trn::sim
