// CLI of `trnsim export chakra`: options in, run_export_chakra, the traces written all or
// nothing, a summary on stdout (sim/app/commands/export_chakra.h, docs/interop.md).
#include <sys/stat.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>

#include "sim/app/cli/commands.h"
#include "sim/app/commands/export_chakra.h"
#include "sim/base/config_node.h"
#include "sim/base/output_file.h"

namespace trn::app {

namespace {

// The output directory: made when missing (its parent must exist); an existing file is refused.
void make_out_dir(const std::string& dir) {
  struct stat st {};
  if (::stat(dir.c_str(), &st) == 0) {
    if (!S_ISDIR(st.st_mode))
      throw sim::ConfigError(sim::Location{"--out " + dir, 0, 0}, "", "expected a directory, found a file");
    return;
  }
  if (::mkdir(dir.c_str(), 0777) != 0)
    throw sim::ConfigError(sim::Location{"--out " + dir, 0, 0}, "",
                           std::string("cannot create the directory: ") + std::strerror(errno));
}

}  // namespace

Runner add_export(CLI::App* app) {
  auto o = std::make_shared<ChakraExportOptions>();
  auto sets = std::make_shared<std::vector<std::string>>();
  auto* e = app->add_subcommand("export", "Write a simulated training step in another simulator's format");
  e->require_subcommand(1);
  auto* c = e->add_subcommand(
      "chakra",
      "Chakra execution traces (ASTRA-sim, MLCommons): DIR/<name>.<rank>.et per rank and DIR/<name>.comm_groups.json");
  c->add_option("scenario", o->job.scenario, "Scenario name (workloads/scenarios) or YAML path")->required();
  c->add_option("--out", o->out, "Directory to write the traces to, made when missing (required; no default)")
      ->required();
  c->add_option("--set", *sets, "Override a scenario field, e.g. model.num_layers=2 (repeatable)");
  c->add_option("--mode", o->job.mode, "Execution mode: eager | compiled (default: the scenario's)")
      ->check(CLI::IsMember({"eager", "compiled"}));
  c->add_option("--model", o->job.model,
                "Replace the scenario's model: zoo name, YAML path or Hugging Face config.json (default: the "
                "scenario's)");
  c->add_option("--max-memory", o->job.max_memory,
                "Refuse to start a simulation estimated to need more memory than this (bytes with units, e.g. 8GiB; "
                "default: half of the machine's RAM)");
  return [o, sets]() -> int {
    o->job.sets = *sets;
    ChakraExportResult r = run_export_chakra(*o);
    make_out_dir(o->out);
    std::vector<std::string> options(r.files.size(), "--out");
    sim::write_files_atomic(r.files, options);
    write_export_text(r, stdout);
    return 0;
  };
}

}  // namespace trn::app
