// CLI of `trnsim report` and `trnsim config-reference`: options in, run_X, the page or the
// reference written, a summary on stdout (sim/app/commands/report.h, config_reference.h).
#include <cstdio>
#include <memory>

#include "sim/app/cli/commands.h"
#include "sim/app/commands/config_reference.h"
#include "sim/app/commands/report.h"
#include "sim/base/output_file.h"

namespace trn::app {

Runner add_report(CLI::App* app) {
  auto o = std::make_shared<ReportOptions>();
  auto* c = app->add_subcommand("report",
                                "Plot run, startup, plan and sweep results, or one timeline trace, into one "
                                "self-contained HTML file");
  c->add_option("results", o->results,
                "Result files of `trnsim run --json`, `startup --json` or `plan --json`, or one trace written by "
                "--trace (default: none)");
  c->add_option("--db", o->db, "Sweep database written by `trnsim sweep` (SQLite; default: none)");
  c->add_option(
       "--html", o->html,
       "Write the report to FILE: one HTML file with inline SVG plots, no network needed (required; no default)")
      ->required();
  return [o]() -> int {
    if (!o->results.empty() || !o->db.empty()) sim::check_writable(o->html, "--html");
    ReportResult r = run_report(*o);
    sim::write_files_atomic({{o->html, r.html}}, {"--html"});
    write_report_text(r, o->html, stdout);
    return 0;
  };
}

Runner add_config_reference(CLI::App* app) {
  auto out = std::make_shared<std::string>();
  auto* c =
      app->add_subcommand("config-reference", "Print the configuration reference generated from the spec field lists");
  c->add_option("--out", *out, "Write it to FILE (default: standard output)");
  return [out]() -> int {
    write_or_print(*out, config_reference());
    return 0;
  };
}

}  // namespace trn::app
