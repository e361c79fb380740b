// The fabric's trace writer (hw/trace/fabric_trace.h), an observer of the FlowNetwork: busy
// spans (category "links"), one per interval in which a traced resource has at least one
// active flow, with the most concurrent flows and the bytes carried; untraced resources get no
// track; spans still open are cut by flush; utilisation counters sampled over the re-solved
// components equal a full scan.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <cstdio>
#include <algorithm>
#include <cmath>
#include <fstream>
#include <functional>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "hw/fabric/flow_network.h"
#include "hw/trace/fabric_trace.h"
#include "sim/kernel/event_queue.h"

using namespace trn;

namespace {

struct Span {
  int tid = 0, flows = 0;
  double ts = 0, dur = 0, bytes = 0;
};

std::string trace_path(const std::string& tag) {
  return "/tmp/trnsim_link_trace_" + tag + "_" + std::to_string(::getpid()) + ".json";
}

// The trace writes one event per line; pick the "links" spans and count thread names.
std::vector<Span> read_spans(const std::string& path, int* thread_names) {
  std::ifstream in(path);
  std::string line;
  std::vector<Span> out;
  *thread_names = 0;
  while (std::getline(in, line)) {
    if (line.find("\"thread_name\"") != std::string::npos) ++*thread_names;
    if (line.find("\"cat\":\"links\"") == std::string::npos) continue;
    Span s;
    REQUIRE(std::sscanf(line.c_str() + line.find("\"tid\":"),
                        "\"tid\":%d,\"ts\":%lf,\"dur\":%lf,\"args\":{\"flows\":%d,\"bytes\":%lf", &s.tid, &s.ts, &s.dur,
                        &s.flows, &s.bytes) == 5);
    out.push_back(s);
  }
  std::remove(path.c_str());
  return out;
}

}  // namespace

TEST_CASE("busy spans cover the intervals with active flows on a traced resource", "[fabric][trace]") {
  const std::string path = trace_path("busy");
  sim::JsonTraceSink sink(path, {}, 0, 1e300);
  hw::FlowNetwork net("net");
  int32_t link = net.add_resource("link.a->b", 100e9);
  int32_t hbm = net.add_resource("hbm", 1000e9);  // not traced
  hw::FabricTraceWriter writer(net, sink, 7);
  writer.trace_busy_spans(link);
  // 0-10 ms alone at 100 GB/s would end at 10 ms; a second flow from 5 ms shares the link,
  // so both end by 20 ms (2 GB at 100 GB/s). A third flow runs alone 30-40 ms.
  net.start({{link, 1.0}, {hbm, 1.0}}, 1e9, 0, [] {});
  net.start({{link, 1.0}}, 1e9, 5e-3, [] {});
  net.start({{link, 1.0}, {hbm, 1.0}}, 1e9, 30e-3, [] {});
  sim::run_to_completion();
  writer.flush(sim::now_s());
  sink.finish();
  int names = 0;
  auto spans = read_spans(path, &names);
  CHECK(names == 1);  // only the traced link has a track
  REQUIRE(spans.size() == 2);
  CHECK(spans[0].tid == hw::FabricTraceWriter::kSpanTidBase + link);
  CHECK(spans[0].ts == Approx(0).margin(1e-6));
  CHECK(spans[0].dur == Approx(20e3).epsilon(1e-6));
  CHECK(spans[0].flows == 2);
  CHECK(spans[0].bytes == Approx(2e9));
  CHECK(spans[1].ts == Approx(30e3).epsilon(1e-6));
  CHECK(spans[1].dur == Approx(10e3).epsilon(1e-6));
  CHECK(spans[1].flows == 1);
  CHECK(spans[1].bytes == Approx(1e9));
  CHECK(spans[0].bytes + spans[1].bytes == Approx(net.carried(link)));  // bytes conserved
}

TEST_CASE("flush cuts a span that is still open", "[fabric][trace]") {
  const std::string path = trace_path("flush");
  sim::JsonTraceSink sink(path, {}, 0, 1e300);
  hw::FlowNetwork net("net");
  int32_t link = net.add_resource("link.a->b", 100e9);
  hw::FabricTraceWriter writer(net, sink, 7);
  writer.trace_busy_spans(link);
  net.start({{link, 1.0}}, 1e9, 0, [] {});  // would end at 10 ms
  sc_core::sc_start(sim::to_sc(4e-3));
  writer.flush(sim::now_s());
  sink.finish();
  int names = 0;
  auto spans = read_spans(path, &names);
  REQUIRE(spans.size() == 1);
  CHECK(spans[0].dur == Approx(4e3).epsilon(1e-6));
  CHECK(spans[0].bytes == Approx(0.4e9).epsilon(1e-6));  // 4 ms at 100 GB/s
}

namespace {
// The "counters" lines of a trace, in order.
std::vector<std::string> read_counters(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  std::vector<std::string> out;
  while (std::getline(in, line))
    if (line.find("\"cat\":\"counters\"") != std::string::npos) out.push_back(line);
  std::remove(path.c_str());
  return out;
}
}  // namespace

TEST_CASE("utilisation counters from re-solved components equal a full scan", "[fabric][trace]") {
  // Two networks in one kernel run the same random flows (shared resources, latencies,
  // flows started from callbacks); one samples counters over the re-solved component and
  // the deferred resources, the other scans every flow and resource at each re-solve.
  const std::string pa = trace_path("inc"), pb = trace_path("full");
  sim::JsonTraceSink sa(pa, {}, 0, 1e300), sb(pb, {}, 0, 1e300);
  hw::FlowNetwork na("na"), nb("nb");
  const int resources = 40;
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> u01(0.0, 1.0);
  for (int r = 0; r < resources; ++r) {
    const double cap = 1e9 * (1.0 + 19.0 * u01(rng));
    na.add_resource("r" + std::to_string(r), cap);
    nb.add_resource("r" + std::to_string(r), cap);
  }
  hw::FabricTraceWriter wa(na, sa, 1), wb(nb, sb, 1);
  wb.set_counters_full_scan(true);
  struct Spec {
    std::vector<models::ResourceUse> uses;
    double bytes, latency;
    int children;
  };
  std::vector<Spec> specs;
  for (int i = 0; i < 600; ++i) {
    Spec f;
    const int hops = 1 + static_cast<int>(u01(rng) * 4);
    for (int h = 0; h < hops; ++h) f.uses.push_back({static_cast<int32_t>(u01(rng) * resources) % resources, 1.0});
    std::sort(f.uses.begin(), f.uses.end(), [](const auto& a, const auto& b) { return a.resource < b.resource; });
    f.uses.erase(std::unique(f.uses.begin(), f.uses.end(),
                             [](const auto& a, const auto& b) { return a.resource == b.resource; }),
                 f.uses.end());
    f.bytes = std::pow(10.0, 4.0 + 3.0 * u01(rng));  // 10 kB .. 10 MB: many events within 100 us
    f.latency = u01(rng) < 0.5 ? 0.0 : 50e-6 * u01(rng);
    f.children = u01(rng) < 0.3 ? 1 : 0;
    specs.push_back(std::move(f));
  }
  size_t next = 200;  // flows 0..199 start at time 0; the rest from callbacks, in order
  std::function<void(hw::FlowNetwork&, size_t, size_t*)> launch = [&](hw::FlowNetwork& net, size_t i, size_t* cursor) {
    const Spec& f = specs[i];
    net.start(f.uses, f.bytes, f.latency, [&net, &launch, &specs, i, cursor] {
      for (int c = 0; c < specs[i].children && *cursor < specs.size(); ++c) launch(net, (*cursor)++, cursor);
    });
  };
  size_t next_b = next;
  for (size_t i = 0; i < 200; ++i) {
    launch(na, i, &next);
    launch(nb, i, &next_b);
  }
  sim::run_to_completion();
  sa.finish();
  sb.finish();
  const auto a = read_counters(pa), b = read_counters(pb);
  CHECK(a.size() > 200);  // the case exercises the sampling (and the 100 us limit)
  REQUIRE(a.size() == b.size());
  for (size_t i = 0; i < a.size(); ++i) REQUIRE(a[i] == b[i]);
}
