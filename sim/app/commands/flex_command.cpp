// `trnsim flexattention` (flex.h): the suite at the given budget and speed-up, twice as fast,
// and with twice the budget.
#include "sim/app/commands/flex.h"

#include <cstdio>
#include <map>

#include "sim/app/commands/documents.h"
#include "sim/base/config_node.h"
#include "sim/base/config_reader.h"
#include "sim/base/units.h"
#include "workloads/compile/first_step.h"

namespace trn::app {

FlexSuiteResult run_flex(const FlexOptions& o) {
  std::string why;
  auto budget = sim::parse_quantity(o.budget, sim::Dim::Time, &why);
  if (!budget || *budget <= 0)
    throw sim::ConfigError(sim::Location{"--budget", 0, 0}, "",
                           (budget ? "must be positive" : why) + "; expected " + sim::dim_expectation(sim::Dim::Time));
  if (!(o.speedup > 0)) throw sim::ConfigError(sim::Location{"--speedup", 0, 0}, "", "expected a positive factor");
  models::CompileParams p = workloads::load_compile_params();
  FlexSuiteResult r;
  auto add = [&](const char* label, double b, double sp) {
    r.scenarios.push_back(FlexScenario{label, b, sp, workloads::run_flex_suite(p, b, sp)});
  };
  add("as given", *budget, o.speedup);
  add("compiler twice as fast", *budget, o.speedup * 2);
  add("budget twice as long", *budget * 2, o.speedup);
  char knobs[96];
  std::snprintf(knobs, sizeof knobs, "budget_s: %.17g\nspeedup: %.17g\n", *budget, o.speedup);
  r.inputs_hash = inputs_hash(std::string("command: flexattention\n") + knobs + "compile_params:\n" +
                              sim::to_yaml(sim::write_config(p)));
  return r;
}

void write_flex_text(const FlexSuiteResult& r, FILE* out) {
  std::fprintf(out, "Trainium3 FlexAttention suite (8 variants x batch {1,2,4} x seq {1k,2k,4k,8k}, 16 heads x 128)\n");
  for (const auto& s : r.scenarios) {
    int fail = 0;
    std::map<std::pair<int, int>, int> where;
    for (const auto& c : s.cases) {
      fail += !c.pass;
      if (!c.pass) where[{c.c.batch, c.c.seq}]++;
    }
    std::fprintf(out, "  %-34s %2d of 96 fail", s.label.c_str(), fail);
    for (const auto& [k, n] : where) std::fprintf(out, "  [batch %d, seq %d: %d]", k.first, k.second, n);
    std::fprintf(out, "\n");
  }
  std::fprintf(out, "  compile time (s) at seq 8192:\n    %-16s %10s %10s %10s\n", "variant", "batch 1", "batch 2",
               "batch 4");
  std::map<std::string, std::map<int, double>> t;
  for (const auto& c : r.scenarios.front().cases)
    if (c.c.seq == 8192) t[c.c.variant][c.c.batch] = c.seconds;
  for (const auto& [v, m] : t)
    std::fprintf(out, "    %-16s %10.0f %10.0f %10.0f\n", v.c_str(), m.at(1), m.at(2), m.at(4));
}

nlohmann::ordered_json flex_json(const FlexSuiteResult& r) {
  nlohmann::ordered_json js;
  for (const auto& s : r.scenarios) {
    int fail = 0, agree = 0;
    for (const auto& c : s.cases) {
      fail += !c.pass;
      agree += (c.pass != workloads::flex_published_fail(c.c));
    }
    js["scenarios"].push_back({{"label", s.label},
                               {"budget_s", s.budget_s},
                               {"speedup", s.speedup},
                               {"failures", fail},
                               {"agree_with_published", agree}});
  }
  for (const auto& c : r.scenarios.front().cases)
    js["cases"].push_back({{"variant", c.c.variant},
                           {"batch", c.c.batch},
                           {"seq_len", c.c.seq},
                           {"units", c.units},
                           {"compile_s", c.seconds},
                           {"pass", c.pass}});
  return stamped(Document::Flex, r.inputs_hash, js);
}

}  // namespace trn::app
