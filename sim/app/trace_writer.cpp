// Chrome trace writer.
#include "sim/app/trace_writer.h"

#include <nlohmann/json.hpp>

#include <set>
#include <sstream>

namespace trn::app {

std::string chrome_trace(const hw::ProgramRunner& runner, const hw::System& sys) {
  std::ostringstream os;
  os << "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n";
  bool first = true;
  auto emit = [&](const nlohmann::ordered_json& e) {
    os << (first ? "" : ",\n") << e.dump();
    first = false;
  };
  std::set<int> chips;
  for (const auto& [rank, core] : runner.ranks()) {
    const hw::RankPlacement p = sys.placement(rank);
    if (chips.insert(p.chip).second)
      emit({{"ph", "M"}, {"name", "process_name"}, {"pid", p.chip}, {"args", {{"name", "chip " + std::to_string(p.chip)}}}});
    const auto& prog = core->program();
    const auto& times = core->op_times();
    std::set<int> named;
    for (size_t i = 0; i < prog.ops.size(); ++i) {
      const auto& op = prog.ops[i];
      int lane = static_cast<int>(op.engine) * 16 + (op.engine == models::Engine::Dma || op.engine == models::Engine::Collective ? op.queue : 0);
      int tid = rank * 1000 + lane;
      if (named.insert(tid).second) {
        std::string track = "rank " + std::to_string(rank) + " " + models::engine_name(op.engine);
        if (op.engine == models::Engine::Dma || op.engine == models::Engine::Collective) track += " q" + std::to_string(op.queue);
        emit({{"ph", "M"}, {"name", "thread_name"}, {"pid", p.chip}, {"tid", tid}, {"args", {{"name", track}}}});
      }
      double ts = times[i].first * 1e6, dur = (times[i].second - times[i].first) * 1e6;
      nlohmann::ordered_json e = {{"ph", "X"}, {"name", op.name.empty() ? models::engine_name(op.engine) : op.name},
                                  {"cat", models::engine_name(op.engine)}, {"pid", p.chip}, {"tid", tid},
                                  {"ts", ts}, {"dur", dur}};
      if (op.flops > 0) e["args"]["flops"] = op.flops;
      if (op.bytes > 0) e["args"]["bytes"] = op.bytes;
      emit(e);
    }
  }
  os << "\n]}\n";
  return os.str();
}

}  // namespace trn::app
