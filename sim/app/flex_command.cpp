// `trnsim flexattention`: the reconstructed Trainium3 FlexAttention suite (96 cases) against
// a compile budget, and what a faster compiler or a longer budget would change.
#include <nlohmann/json.hpp>

#include <cstdio>
#include <map>
#include <memory>

#include "sim/app/commands.h"
#include "sim/base/output_file.h"
#include "workloads/compile/first_step.h"
#include "workloads/compile/flex_suite.h"

namespace trn::app {

Runner add_flexattention(CLI::App* app) {
  struct Opts {
    CommonOptions common;
    std::string budget = "600s";
    double speedup = 1.0;
  };
  auto o = std::make_shared<Opts>();
  auto* c = app->add_subcommand("flexattention", "The reconstructed Trainium3 FlexAttention compile suite (96 cases)");
  c->add_option("--budget", o->budget, "Compile budget per test, a time with unit")->capture_default_str();
  c->add_option("--speedup", o->speedup, "Compiler speed-up factor (2 = twice as fast)")->capture_default_str();
  c->add_option("--json", o->common.json, "Write the cases and summaries as JSON to FILE (default: none)");
  return [o]() -> int {
    check_outputs(o->common);
    std::string why;
    auto budget = sim::parse_quantity(o->budget, sim::Dim::Time, &why);
    if (!budget || *budget <= 0)
      throw sim::ConfigError(sim::Location{"--budget", 0, 0}, "", (budget ? "must be positive" : why) + "; expected " +
                                                                      sim::dim_expectation(sim::Dim::Time));
    if (!(o->speedup > 0)) throw sim::ConfigError(sim::Location{"--speedup", 0, 0}, "", "expected a positive factor");
    models::CompileParams p = workloads::load_compile_params();
    nlohmann::ordered_json js;
    auto summary = [&](const char* label, double b, double sp) {
      auto rs = workloads::run_flex_suite(p, b, sp);
      int fail = 0, agree = 0;
      std::map<std::pair<int, int>, int> where;
      for (const auto& r : rs) {
        fail += !r.pass;
        agree += (r.pass != workloads::flex_published_fail(r.c));
        if (!r.pass) where[{r.c.batch, r.c.seq}]++;
      }
      std::printf("  %-34s %2d of 96 fail", label, fail);
      for (const auto& [k, n] : where) std::printf("  [batch %d, seq %d: %d]", k.first, k.second, n);
      std::printf("\n");
      js["scenarios"].push_back({{"label", label}, {"budget_s", b}, {"speedup", sp}, {"failures", fail}, {"agree_with_published", agree}});
      return rs;
    };
    std::printf("Trainium3 FlexAttention suite (8 variants x batch {1,2,4} x seq {1k,2k,4k,8k}, 16 heads x 128)\n");
    auto base = summary("as given", *budget, o->speedup);
    summary("compiler twice as fast", *budget, o->speedup * 2);
    summary("budget twice as long", *budget * 2, o->speedup);
    std::printf("  compile time (s) at seq 8192:\n    %-16s %10s %10s %10s\n", "variant", "batch 1", "batch 2", "batch 4");
    std::map<std::string, std::map<int, double>> t;
    for (const auto& r : base) {
      if (r.c.seq == 8192) t[r.c.variant][r.c.batch] = r.seconds;
      js["cases"].push_back({{"variant", r.c.variant}, {"batch", r.c.batch}, {"seq_len", r.c.seq},
                             {"units", r.c.units}, {"compile_s", r.seconds}, {"pass", r.pass}});
    }
    for (const auto& [v, m] : t) std::printf("    %-16s %10.0f %10.0f %10.0f\n", v.c_str(), m.at(1), m.at(2), m.at(4));
    write_outputs(o->common, js.dump(2) + "\n", "");
    return 0;
  };
}

}  // namespace trn::app
