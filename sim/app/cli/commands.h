// The CLI layer of the trnsim executable: each subcommand registers its options on a CLI11
// app and returns a function that calls the command's run_X (sim/app/commands/, calibration/)
// and its writers (0 = success; user errors throw ConfigError, reported by the caller with
// exit status 2).
#pragma once

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "models/spec/chip_spec.h"
#include "sim/app/commands/common.h"

namespace trn::app {

using Runner = std::function<int()>;

/// Options every simulating command shares.
struct CommonOptions {
  std::vector<std::string> sets;  // --set key=value
  std::string json;               // --json FILE, or "-": standard output
  std::string resolved;           // --resolved FILE, or "-": standard output
};
void add_common(CLI::App* cmd, CommonOptions& o);

/// "-" as an output path: standard output.
inline bool is_stdout(const std::string& path) { return path == "-"; }
/// Where the human summary goes: standard error when an output is "-" (standard output then
/// carries that document alone), else standard output. `other` is a further output (--trace).
FILE* summary_stream(const CommonOptions& c, const std::string& other = "");
/// Checks an output option that may also be "-" (--trace): writable, and standard output not
/// taken by --json or --resolved as well.
void check_other_output(const CommonOptions& c, const std::string& path, const std::string& option);

/// `--trace -`: the trace is written to a temporary file (renamed into place when complete,
/// removed on an error or a signal) and copied to standard output by emit() after the run, so
/// that standard output never carries half a document.
class StdoutSpool {
 public:
  /// When `path` is "-", replaces it by a new temporary file's path; otherwise does nothing.
  explicit StdoutSpool(std::string& path);
  ~StdoutSpool();
  StdoutSpool(const StdoutSpool&) = delete;
  StdoutSpool& operator=(const StdoutSpool&) = delete;
  /// Copies the finished file to standard output (when spooling).
  void emit();

 private:
  std::string tmp_;
};

/// A sweep worker's outcome channel (hidden `--result-fd FD`): the point's result document,
/// or why it could not run, sealed in fork_pool's one envelope (sim::ChildResult) and written
/// to the pipe its sweep reads. Without the option (fd -1) nothing is sent.
struct ResultChannel {
  int fd = -1;
  /// Sends the result document's text.
  void result(const std::string& document) const;
  /// Sends a bad input's kind and message (exit status 2).
  void infeasible(const std::string& kind, const std::string& message) const;
};
/// Runs `body`; when it throws ConfigError, sends the error's kind and message first.
int reporting_to(const ResultChannel& channel, const std::function<int()>& body);
/// Registers the hidden --result-fd option on `cmd`.
void add_result_option(CLI::App* cmd, ResultChannel& channel);

Runner add_bench_collective(CLI::App* bench);
Runner add_bench_matmul(CLI::App* bench);
Runner add_bench_hbm(CLI::App* bench);
Runner add_show(CLI::App* app);
Runner add_calibrate_collectives(CLI::App* app);
Runner add_run(CLI::App* app);
Runner add_calibrate_runtime(CLI::App* app);
Runner add_startup(CLI::App* app);
Runner add_calibrate_compile(CLI::App* app);
Runner add_calibrate_intervals(CLI::App* app);
Runner add_flexattention(CLI::App* app);
Runner add_inference_compile(CLI::App* app);
Runner add_config_reference(CLI::App* app);
Runner add_sweep(CLI::App* app);
Runner add_merge(CLI::App* app);
Runner add_report(CLI::App* app);
Runner add_plan(CLI::App* app);    // sim/app/cli/plan_cli.cpp
Runner add_export(CLI::App* app);  // sim/app/cli/export_cli.cpp

/// Writes `content` to `path` atomically if `path` is not empty (to standard output for "-").
void write_output(const std::string& path, const std::string& content);
/// Writes `content` to `path` atomically, or to standard output when `path` is empty or "-".
void write_or_print(const std::string& path, const std::string& content);

/// Checks --json and --resolved before a run: writable, not the same file, and at most one of
/// them "-".
void check_outputs(const CommonOptions& c);
/// Writes the --json and --resolved files that were asked for, all or nothing; then the one
/// that is "-" to standard output.
void write_outputs(const CommonOptions& c, const std::string& json, const std::string& resolved);
/// write_outputs for a one-chip benchmark (bench matmul, bench hbm): the document and the
/// chip's resolved configuration. Returns the document's text (bench_core_cli.cpp).
std::string write_chip_outputs(const CommonOptions& c, const nlohmann::ordered_json& doc, const models::ChipSpec& chip);

int run_cli(int argc, char** argv);

}  // namespace trn::app
