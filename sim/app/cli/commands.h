// The CLI layer of the trnsim executable: each subcommand registers its options on a CLI11
// app and returns a function that calls the command's run_X (sim/app/commands/, calibration/)
// and its writers (0 = success; user errors throw ConfigError, reported by the caller with
// exit status 2).
#pragma once

#include <CLI/CLI.hpp>

#include <functional>
#include <string>
#include <vector>

#include "sim/app/commands/common.h"

namespace trn::app {

using Runner = std::function<int()>;

/// Options every simulating command shares.
struct CommonOptions {
  std::vector<std::string> sets;  // --set key=value
  std::string json;               // --json FILE
  std::string resolved;           // --resolved FILE
};
void add_common(CLI::App* cmd, CommonOptions& o);

Runner add_bench_collective(CLI::App* bench);
Runner add_bench_matmul(CLI::App* bench);
Runner add_bench_hbm(CLI::App* bench);
Runner add_show(CLI::App* app);
Runner add_calibrate_collectives(CLI::App* app);
Runner add_run(CLI::App* app);
Runner add_calibrate_runtime(CLI::App* app);
Runner add_startup(CLI::App* app);
Runner add_calibrate_compile(CLI::App* app);
Runner add_flexattention(CLI::App* app);
Runner add_config_reference(CLI::App* app);
Runner add_sweep(CLI::App* app);
Runner add_merge(CLI::App* app);
Runner add_report(CLI::App* app);

/// Writes `content` to `path` atomically if `path` is not empty.
void write_output(const std::string& path, const std::string& content);
/// Writes `content` to `path` atomically, or to standard output when `path` is empty.
void write_or_print(const std::string& path, const std::string& content);

/// Checks --json and --resolved before a run: writable, and not the same file.
void check_outputs(const CommonOptions& c);
/// Writes the --json and --resolved files that were asked for, all or nothing.
void write_outputs(const CommonOptions& c, const std::string& json, const std::string& resolved);

int run_cli(int argc, char** argv);

}  // namespace trn::app
