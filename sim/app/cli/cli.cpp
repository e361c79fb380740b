// CLI dispatch: builds the command tree, maps errors to exit codes (2 for bad input).
#include <systemc>

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>

#include <nlohmann/json.hpp>

#include "sim/app/cli/commands.h"
#include "sim/app/plan/plan.h"
#include "sim/base/config_node.h"
#include "sim/base/fork_pool.h"
#include "sim/base/output_file.h"
#include "sim/base/provenance.h"
#include "sim/base/units.h"

namespace trn::app {

void add_common(CLI::App* cmd, CommonOptions& o) {
  cmd->add_option("--set", o.sets,
                  "Override any configuration key, e.g. --set chip.hbm.bandwidth=\"3.0 TB/s\" "
                  "(repeatable; quantities need units; default: none)");
  cmd->add_option("--json", o.json,
                  "Write results as JSON to FILE, or to standard output for '-' (the summary then goes to "
                  "standard error; SI units; default: none)");
  cmd->add_option("--resolved", o.resolved,
                  "Write the fully resolved configuration to FILE or '-' (feed it back to reproduce "
                  "the run; default: none)");
}

namespace {

void print(const std::string& content) {
  std::fwrite(content.data(), 1, content.size(), stdout);
  std::fflush(stdout);
}

}  // namespace

void write_output(const std::string& path, const std::string& content) {
  if (is_stdout(path))
    print(content);
  else if (!path.empty())
    sim::write_file_atomic(path, content);
}

void write_or_print(const std::string& path, const std::string& content) {
  if (path.empty() || is_stdout(path))
    print(content);
  else
    sim::write_file_atomic(path, content);
}

FILE* summary_stream(const CommonOptions& c, const std::string& other) {
  return is_stdout(c.json) || is_stdout(c.resolved) || is_stdout(other) ? stderr : stdout;
}

void check_outputs(const CommonOptions& c) {
  if (!c.json.empty() && !is_stdout(c.json)) sim::check_writable(c.json, "--json");
  if (!c.resolved.empty() && !is_stdout(c.resolved)) sim::check_writable(c.resolved, "--resolved");
  if (c.json.empty() || c.resolved.empty()) return;
  if (is_stdout(c.json) && is_stdout(c.resolved))
    throw sim::ConfigError(sim::Location{"--resolved -", 0, 0}, "", "standard output already carries --json");
  if (is_stdout(c.json) || is_stdout(c.resolved)) return;
  std::error_code e1, e2;
  auto json = std::filesystem::weakly_canonical(c.json, e1);
  auto resolved = std::filesystem::weakly_canonical(c.resolved, e2);
  if (!e1 && !e2 && json == resolved)
    throw sim::ConfigError(sim::Location{"--resolved " + c.resolved, 0, 0}, "", "same file as --json");
}

void check_other_output(const CommonOptions& c, const std::string& path, const std::string& option) {
  if (path.empty()) return;
  if (!is_stdout(path)) {
    sim::check_writable(path, option);
    return;
  }
  if (is_stdout(c.json) || is_stdout(c.resolved))
    throw sim::ConfigError(
        sim::Location{option + " -", 0, 0}, "",
        std::string("standard output already carries ") + (is_stdout(c.json) ? "--json" : "--resolved"));
}

void write_outputs(const CommonOptions& c, const std::string& json, const std::string& resolved) {
  std::vector<std::pair<std::string, std::string>> files;
  std::vector<std::string> options;
  if (!c.json.empty() && !is_stdout(c.json)) {
    files.emplace_back(c.json, json);
    options.push_back("--json");
  }
  if (!c.resolved.empty() && !is_stdout(c.resolved)) {
    files.emplace_back(c.resolved, resolved);
    options.push_back("--resolved");
  }
  sim::write_files_atomic(files, options);  // the files first: an error leaves standard output untouched
  if (is_stdout(c.json)) print(json);
  if (is_stdout(c.resolved)) print(resolved);
}

StdoutSpool::StdoutSpool(std::string& path) {
  if (!is_stdout(path)) return;
  const char* dir = std::getenv("TMPDIR");
  std::string tpl = std::string(dir && *dir ? dir : "/tmp") + "/trnsim-stdout-XXXXXX";
  const int fd = mkstemp(tpl.data());
  if (fd < 0) throw sim::ConfigError(sim::Location{"TMPDIR", 0, 0}, "", "cannot create a temporary file " + tpl);
  ::close(fd);
  tmp_ = tpl;
  sim::register_temp_file(tmp_);
  path = tmp_;
}

StdoutSpool::~StdoutSpool() {
  if (tmp_.empty()) return;
  std::remove(tmp_.c_str());
  sim::unregister_temp_file(tmp_);
}

void StdoutSpool::emit() {
  if (tmp_.empty()) return;
  std::FILE* in = std::fopen(tmp_.c_str(), "rb");
  if (!in) throw std::runtime_error("cannot read the spooled output " + tmp_);
  char buf[1 << 16];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, in)) > 0) std::fwrite(buf, 1, n, stdout);
  std::fclose(in);
  std::fflush(stdout);
}

void ResultChannel::result(const std::string& document) const { sim::ChildResult::of(document).send(fd); }

void ResultChannel::infeasible(const std::string& kind, const std::string& message) const {
  sim::ChildResult::error(2, message, "", kind).send(fd);  // best effort: the sweep falls back to the error line
}

int reporting_to(const ResultChannel& channel, const std::function<int()>& body) {
  try {
    return body();
  } catch (const sim::ConfigError& e) {
    channel.infeasible(e.kind(), e.what());
    throw;
  }
}

void add_result_option(CLI::App* cmd, ResultChannel& channel) {
  cmd->add_option("--result-fd", channel.fd,
                  "For trnsim sweep's workers: send the result, or why the point could not run, sealed "
                  "(sim::ChildResult) to file descriptor FD")
      ->group("");  // hidden from --help
}

int run_cli(int argc, char** argv) {
  CLI::App app{"trnsim: discrete-event simulator of AWS Trainium training systems"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "trnsim " + sim::trnsim_version());
  auto* bench = app.add_subcommand("bench", "Microbenchmarks of the hardware models");
  bench->require_subcommand(1);
  std::vector<std::pair<CLI::App*, Runner>> runners;
  Runner coll = add_bench_collective(bench);
  Runner mm = add_bench_matmul(bench);
  Runner hbm = add_bench_hbm(bench);
  Runner show = add_show(&app);
  Runner calib = add_calibrate_collectives(&app);
  Runner run = add_run(&app);
  Runner calib_rt = add_calibrate_runtime(&app);
  Runner startup = add_startup(&app);
  Runner calib_compile = add_calibrate_compile(&app);
  Runner calib_iv = add_calibrate_intervals(&app);
  Runner flex = add_flexattention(&app);
  Runner inference = add_inference_compile(&app);
  Runner config_ref = add_config_reference(&app);
  Runner sweep = add_sweep(&app);
  Runner merge = add_merge(&app);
  Runner report = add_report(&app);
  Runner plan = add_plan(&app);
  Runner exporter = add_export(&app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::fprintf(stderr, "trnsim: error: %s (see trnsim --help)\n", e.what());
    return 2;
  }
  try {
    if (bench->got_subcommand("collective")) return coll();
    if (bench->got_subcommand("matmul")) return mm();
    if (bench->got_subcommand("hbm")) return hbm();
    if (app.got_subcommand("show")) return show();
    if (app.got_subcommand("calibrate-collectives")) return calib();
    if (app.got_subcommand("run")) return run();
    if (app.got_subcommand("calibrate-runtime")) return calib_rt();
    if (app.got_subcommand("startup")) return startup();
    if (app.got_subcommand("calibrate")) return calib_compile();
    if (app.got_subcommand("calibrate-intervals")) return calib_iv();
    if (app.got_subcommand("flexattention")) return flex();
    if (app.got_subcommand("inference-compile")) return inference();
    if (app.got_subcommand("config-reference")) return config_ref();
    if (app.got_subcommand("sweep")) return sweep();
    if (app.got_subcommand("merge")) return merge();
    if (app.got_subcommand("report")) return report();
    if (app.got_subcommand("plan")) return plan();
    if (app.got_subcommand("export")) return exporter();
  } catch (const sim::ConfigError& e) {
    std::fprintf(stderr, "trnsim: error: %s\n", e.what());
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "trnsim: internal error: %s\n", e.what());
    return 3;
  }
  return 2;
}

}  // namespace trn::app
