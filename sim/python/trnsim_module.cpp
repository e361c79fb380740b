// The Python extension trnsim._trnsim (docs/python.md). Each call runs one trnsim command in a
// forked child (SystemC elaborates once per process, docs/adr/0002; sim/base/fork_pool): the
// child calls the command's run_X (sim/app/commands) and sends back its JSON document, exactly
// what `trnsim X --json FILE` writes, or the exit status and the one-line message the CLI
// would print. The Python package (sim/python/trnsim/__init__.py) turns that into a dict or a
// trnsim.Error. The parent never starts SystemC.
#include <dlfcn.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstdio>
#include <filesystem>
#include <cstdlib>
#include <functional>
#include <set>
#include <stdexcept>
#include <string>

#include "sim/app/cli/commands.h"
#include "sim/app/cli/plan_options.h"
#include "sim/app/commands/bench_collective.h"
#include "sim/app/commands/bench_core.h"
#include "sim/app/commands/inference_compile.h"
#include "sim/app/commands/report.h"
#include "sim/app/commands/run.h"
#include "sim/app/commands/startup.h"
#include "sim/app/commands/sweep.h"
#include "sim/app/simulation/fork_eval.h"
#include "sim/base/config_node.h"
#include "sim/base/fork_pool.h"
#include "sim/base/output_file.h"
#include "sim/base/paths.h"
#include "sim/base/warnings.h"

namespace py = pybind11;

// libsystemc's own main() calls sc_main, so the shared library refers to it and the module must
// define it to load (Python resolves every symbol at dlopen). Nothing calls it: the children run
// the simulations without sc_elab_and_sim, like the forked children of the CLI.
extern "C" __attribute__((visibility("default"))) int sc_main(int, char**) { return 1; }

namespace trn::app {
namespace {

/// An error with the CLI's exit status (2 bad input, 3 internal); `detail` holds the lines
/// the CLI prints after the message (the memory table of a run that does not fit).
struct CommandError : std::runtime_error {
  CommandError(int status_, const std::string& message, std::string detail_)
      : std::runtime_error(message), status(status_), detail(std::move(detail_)) {}
  int status;
  std::string detail;
};

/// The options a wrapper of trnsim/__init__.py passed (only those the caller gave, already
/// of the field's Python type): each field is read by name, and finish() rejects the rest.
class Args {
 public:
  explicit Args(py::dict d) : d_(std::move(d)) {}
  template <class T>
  Args& operator()(const char* key, T& out) {
    if (d_.contains(key)) out = d_[key].cast<T>();
    used_.insert(key);
    return *this;
  }
  void finish() const {
    for (const auto& item : d_) {
      std::string key = py::str(item.first);
      if (!used_.count(key)) throw py::type_error("unexpected option '" + key + "'");
    }
  }

 private:
  py::dict d_;
  std::set<std::string> used_;
};

/// What `write` prints, as a string.
std::string captured(const std::function<void(FILE*)>& write) {
  char* buf = nullptr;
  size_t len = 0;
  FILE* f = open_memstream(&buf, &len);
  if (!f) throw std::runtime_error("open_memstream failed");
  write(f);
  std::fclose(f);
  std::string text(buf, len);
  std::free(buf);
  return text;
}

/// The CLI's "does not fit in HBM" report as an error: its first line (without "trnsim: error: ")
/// is the message, the memory table the detail.
CommandError oom_error(const RunResult& r) {
  std::string text = captured([&](FILE* f) { write_run_oom(r, f); });
  const std::string prefix = "trnsim: error: ";
  const size_t nl = text.find('\n');
  std::string first = text.substr(0, nl);
  if (first.compare(0, prefix.size(), prefix) == 0) first.erase(0, prefix.size());
  return CommandError(2, first, nl == std::string::npos ? "" : text.substr(nl + 1));
}

/// In the child: the command's JSON text, or its error with the CLI's exit status (those of
/// run_cli, sim/app/cli/cli.cpp), sealed in fork_pool's one envelope. `progress`: -1 draws the
/// progress and status lines when stderr is a terminal, 0 never, 1 always (the option progress=).
std::string child_reply(const std::function<std::string()>& command, int progress) {
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 1);
  sim::install_signal_cleanup();  // as in main(): SIGINT/SIGTERM remove partial output files
  if (progress >= 0) sim::force_progress_on_stderr(progress != 0);
  try {
    return sim::ChildResult::of(command()).seal();
  } catch (const CommandError& e) {
    return sim::ChildResult::error(e.status, e.what(), e.detail).seal();
  } catch (const std::exception& e) {
    return error_result(e).seal();
  }
}

/// Runs `command` in a forked child, with the GIL released while it runs, and returns
/// (status, text, detail) as bytes: status 0 and the JSON, or the exit status and the message.
/// A SIGINT that arrived meanwhile raises KeyboardInterrupt (the child has exited by then: it
/// is stopped when the signal interrupts the wait, or it got the terminal's SIGINT itself).
py::tuple in_child(const std::function<std::string()>& command, int progress = -1) {
  sim::ChildOutcome out;
  // A signal that interrupts the wait runs Python's handlers; one that raises (SIGINT's
  // KeyboardInterrupt) stops the child, which takes its own children with it (fork_pool).
  auto interrupted = [] {
    py::gil_scoped_acquire gil;
    return PyErr_CheckSignals() != 0;
  };
  try {
    py::gil_scoped_release nogil;
    sim::run_forked(
        1, [&](size_t) { return child_reply(command, progress); }, 1,
        [&](size_t, sim::ChildOutcome&& c) { out = std::move(c); }, "trnsim", interrupted);
  } catch (const sim::Interrupted&) {
    throw py::error_already_set();  // the exception the handler raised
  } catch (const std::exception& e) {
    return py::make_tuple(3, py::bytes(e.what()), py::bytes(""));
  }
  if (PyErr_CheckSignals() != 0) throw py::error_already_set();
  const sim::ChildResult r = sim::ChildResult::open(out);
  if (r.ok()) return py::make_tuple(0, py::bytes(r.value.get<std::string>()), py::bytes(""));
  return py::make_tuple(r.status, py::bytes(r.message), py::bytes(r.detail));
}

// ---- the commands, as their *_cli.cpp run them (without the text on stdout) ----

std::string run_command(const RunOptions& o, const CommonOptions& c) {
  check_outputs(c);
  if (!o.trace.empty()) sim::check_writable(o.trace, "--trace");
  RunResult r = run_run(o);
  if (!r.fits) throw oom_error(r);
  std::string json = run_json(r).dump(2) + "\n";
  const auto& s = r.scenario;
  write_outputs(c, json, workloads::resolved_yaml(s, "# trnsim resolved scenario " + s.name + "\n"));
  return json;
}

std::string startup_command(const StartupOptions& o, const CommonOptions& c) {
  check_outputs(c);
  if (!o.trace.empty()) sim::check_writable(o.trace, "--trace");
  StartupResult r = run_startup(o);
  std::string json = startup_json(r).dump(2) + "\n";
  const auto& s = r.scenario();
  write_outputs(c, json, workloads::resolved_yaml(s, "# trnsim resolved scenario " + s.name + "\n"));
  return json;
}

std::string bench_collective_command(const BenchCollectiveOptions& o, const CommonOptions& c) {
  parse_bench_collective(o);  // bad options first, then unwritable outputs
  check_outputs(c);
  BenchCollectiveResult r = run_bench_collective(o);
  std::string json = bench_collective_json(r).dump(2) + "\n";
  write_outputs(c, json,
                models::resolved_yaml(r.spec, "# trnsim resolved configuration (system " + r.spec.name + ")\n"));
  return json;
}

std::string matmul_command(const MatmulOptions& o, const CommonOptions& c) {
  parse_matmul(o);  // bad options first, then unwritable outputs
  check_outputs(c);
  const MatmulResult r = run_matmul(o);
  return write_chip_outputs(c, matmul_json(r), r.chip);
}

std::string hbm_command(const HbmOptions& o, const CommonOptions& c) {
  parse_hbm(o);  // bad options first, then unwritable outputs
  check_outputs(c);
  const HbmResult r = run_hbm(o);
  return write_chip_outputs(c, hbm_json(r), r.chip);
}

py::tuple py_run(py::dict d) {
  RunOptions o;
  CommonOptions c;
  bool quiet = false;
  int progress = -1;
  Args(std::move(d))("progress", progress)("scenario", o.scenario)("system", o.system)("chips", o.chips)("set", o.sets)(
      "mode", o.mode)("model", o.model)("trace", o.trace)("trace_categories", o.categories)("trace_window", o.window)(
      "max_memory", o.max_memory)("allow_oom", o.allow_oom)("all_ranks", o.all_ranks)(
      "all_microbatches", o.all_microbatches)("all_layers", o.all_layers)("exact", o.exact)("quiet", quiet)(
      "json", c.json)("resolved", c.resolved)("intervals", o.intervals)
      .finish();
  o.progress = !quiet;
  c.sets = o.sets;
  return in_child([o, c] { return run_command(o, c); }, progress);
}

py::tuple py_startup(py::dict d) {
  StartupOptions o;
  CommonOptions c;
  Args(std::move(d))("scenario", o.scenario)("system", o.system)("chips", o.chips)("set", o.sets)("mode", o.mode)(
      "cache", o.cache)("budget", o.budget)("price_per_hour", o.price)("model", o.model)("trace", o.trace)(
      "sensitivity", o.sensitivity)("allow_oom", o.allow_oom)("json", c.json)("resolved", c.resolved)("intervals",
                                                                                                      o.intervals)
      .finish();
  c.sets = o.sets;
  return in_child([o, c] { return startup_command(o, c); });
}

py::tuple py_bench_collective(py::dict d) {
  BenchCollectiveOptions o;
  CommonOptions c;
  Args(std::move(d))("system", o.system)("instances", o.instances)("lnc", o.lnc)("op", o.op)("ranks", o.ranks)(
      "exact", o.exact)("sizes", o.sizes)("dtype", o.dtype)("algorithm", o.algorithm)("set", o.sets)("json", c.json)(
      "resolved", c.resolved)
      .finish();
  c.sets = o.sets;
  return in_child([o, c] { return bench_collective_command(o, c); });
}

py::tuple py_bench_matmul(py::dict d) {
  MatmulOptions o;
  CommonOptions c;
  Args(std::move(d))("chip", o.chip)("m", o.m)("n", o.n)("k", o.k)("dtype", o.dtype)("set", o.sets)("json", c.json)(
      "resolved", c.resolved)
      .finish();
  c.sets = o.sets;
  return in_child([o, c] { return matmul_command(o, c); });
}

py::tuple py_bench_hbm(py::dict d) {
  HbmOptions o;
  CommonOptions c;
  Args(std::move(d))("chip", o.chip)("cores", o.cores)("bytes", o.bytes)("set", o.sets)("json", c.json)("resolved",
                                                                                                        c.resolved)
      .finish();
  c.sets = o.sets;
  return in_child([o, c] { return hbm_command(o, c); });
}

py::tuple py_plan(py::dict d) {
  PlanCli cli;
  CommonOptions c;
  int progress = -1;
  Args(std::move(d))("progress", progress)("model", cli.model)("tokens", cli.tokens)("systems", cli.systems)(
      "min_chips", cli.min_chips)("max_chips", cli.max_chips)("deadline", cli.deadline)("max_cost", cli.max_cost)(
      "hbm_headroom", cli.hbm_headroom)("prices", cli.prices)("cache", cli.cache)("global_batch", cli.global_batch)(
      "tokens_per_step", cli.tokens_per_step)("seq_len", cli.seq_len)("jobs", cli.jobs)("db", cli.db)(
      "rank_by", cli.rank_by)("interruption_rate", cli.rate)("checkpoint_write_bw", cli.write_bw)(
      "checkpoint_read_bw", cli.read_bw)("checkpoint_interval", cli.interval)("tp", cli.tp)("pp", cli.pp)(
      "max_fsdp", cli.max_fsdp)("microbatch_sequences", cli.microbatch_sequences)("checkpointing", cli.checkpointing)(
      "exhaustive", cli.exhaustive)("no_intervals", cli.no_intervals)("set", cli.sets)("json", c.json)(
      "batch_tolerance", cli.batch_tolerance)("counts", cli.counts)("max_memory", cli.max_memory)
      .finish();
  return in_child(
      [cli, c] {
        const PlanOptions p = plan_options(cli);  // bad options first, then an unwritable output
        check_outputs(c);
        const std::string json = plan_json(run_plan(p)).dump(2) + "\n";
        write_outputs(c, json, "");
        return json;
      },
      progress);
}

/// `trnsim inference-compile`: as inference_compile_cli.cpp does.
py::tuple py_inference_compile(py::dict d) {
  InferenceCompileOptions o;
  CommonOptions c;
  Args(std::move(d))("model", o.model)("tp", o.job.tp)("batch", o.job.batch)("seq", o.job.seq)(
      "buckets", o.job.buckets)("cte_buckets", o.job.cte_buckets)("tkg_buckets", o.job.tkg_buckets)(
      "own_compiler_args", o.job.own_compiler_args)("sdk", o.sdk)("system", o.system)("intervals", o.intervals)(
      "set", o.sets)("json", c.json)
      .finish();
  return in_child([o, c] {
    check_outputs(c);
    const std::string json = inference_compile_json(run_inference_compile(o)).dump(2) + "\n";
    write_outputs(c, json, "");
    return json;
  });
}

/// The sweep file `sweep`, or the document `text` (named `sweep` in messages). Each finished
/// point's line goes to stderr as the CLI's does, but only when progress lines are on.
py::tuple py_sweep(py::dict d) {
  SweepOptions o;
  o.exe = sim::executable_near_self(TRNSIM_EXE);
  int progress = -1;
  Args(std::move(d))("progress", progress)("sweep", o.file)("text", o.text)("db", o.db)("jobs", o.jobs)(
      "shard", o.shard)("executable", o.exe)
      .finish();
  return in_child(
      [o] {
        auto line = [](const SweepProgress& p) {
          if (sim::progress_on_stderr()) write_sweep_progress(p, stderr);
        };
        return sweep_json(run_sweep(o, line)).dump(2) + "\n";
      },
      progress);
}

/// `trnsim report`: checks and writes the page as report_cli.cpp does; the JSON is report_json
/// with the page's path first.
py::tuple py_report(py::dict d) {
  ReportOptions o;
  Args(std::move(d))("results", o.results)("db", o.db)("html", o.html).finish();
  return in_child([o] {
    if (!o.results.empty() || !o.db.empty()) sim::check_writable(o.html, "--html");
    const ReportResult r = run_report(o);
    sim::write_files_atomic({{o.html, r.html}}, {"--html"});
    nlohmann::ordered_json j = {{"html", o.html}};
    j.update(report_json(r));
    return j.dump(2) + "\n";
  });
}

}  // namespace
}  // namespace trn::app

namespace {

// The extension's own file, absolute: the data and the executable are looked up near it
// (sim/base/paths.h), in the build tree or in an install tree.
std::string module_file() {
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(&trn::app::py_run), &info) == 0 || !info.dli_fname) return "";
  std::error_code ec;
  const auto abs = std::filesystem::absolute(info.dli_fname, ec);
  return ec ? std::string(info.dli_fname) : abs.string();
}

}  // namespace

PYBIND11_MODULE(_trnsim, m) {
  m.doc() = "trnsim commands in forked children (use the package trnsim, docs/python.md)";
  trn::sim::set_self_path(module_file());
  // The trnsim the sweep's workers run: the one beside the module (build or install tree).
  m.attr("executable") = trn::sim::executable_near_self(TRNSIM_EXE);
  m.def("run", &trn::app::py_run, "trnsim run: (status, JSON or message, detail)");
  m.def("startup", &trn::app::py_startup, "trnsim startup: (status, JSON or message, detail)");
  m.def("bench_collective", &trn::app::py_bench_collective,
        "trnsim bench collective: (status, JSON or message, detail)");
  m.def("bench_matmul", &trn::app::py_bench_matmul, "trnsim bench matmul: (status, JSON or message, detail)");
  m.def("bench_hbm", &trn::app::py_bench_hbm, "trnsim bench hbm: (status, JSON or message, detail)");
  m.def("plan", &trn::app::py_plan, "trnsim plan: (status, JSON or message, detail)");
  m.def("inference_compile", &trn::app::py_inference_compile,
        "trnsim inference-compile: (status, JSON or message, detail)");
  m.def("sweep", &trn::app::py_sweep, "trnsim sweep: (status, JSON or message, detail)");
  m.def("report", &trn::app::py_report, "trnsim report: (status, JSON or message, detail)");
}
