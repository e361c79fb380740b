// CLI of `trnsim flexattention`: options in, run_flex, text on stdout, --json file
// (sim/app/commands/flex.h).
#include <cstdio>
#include <memory>

#include "sim/app/cli/commands.h"
#include "sim/app/commands/flex.h"

namespace trn::app {

Runner add_flexattention(CLI::App* app) {
  struct Opts {
    CommonOptions common;
    FlexOptions flex;
  };
  auto o = std::make_shared<Opts>();
  auto* c = app->add_subcommand("flexattention", "The reconstructed Trainium3 FlexAttention compile suite (96 cases)");
  c->add_option("--budget", o->flex.budget, "Compile budget per test, a time with unit")->capture_default_str();
  c->add_option("--speedup", o->flex.speedup, "Compiler speed-up factor (2 = twice as fast)")->capture_default_str();
  c->add_option("--json", o->common.json,
                "Write the cases and summaries as JSON to FILE, or to standard output for '-' (default: none)");
  return [o]() -> int {
    check_outputs(o->common);
    FlexSuiteResult r = run_flex(o->flex);
    write_flex_text(r, summary_stream(o->common));
    write_outputs(o->common, flex_json(r).dump(2) + "\n", "");
    return 0;
  };
}

}  // namespace trn::app
