// One simulation per forked child (SystemC elaborates once per process; docs/adr/0002). The
// single helper behind run_in_child / run_in_children (sim/app/simulation/fork_eval.h), the
// sweep's worker pool (which execs `trnsim run` in each child) and the benchmarks.
#pragma once

#include <nlohmann/json.hpp>

#include <cstddef>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace trn::sim {

/// How a child ended: its wait status and everything it wrote to its pipe.
struct ChildOutcome {
  int status = 0;      // as from waitpid()
  std::string output;  // the text `body` returned (empty for a child that exec'd)
  /// The exit code, or 128 + signal for a child killed by a signal.
  int exit_code() const;
  /// Exited with status 0 and returned some text.
  bool ok() const { return exit_code() == 0 && !output.empty(); }
};

/// The one envelope of every forked child's result: the child seals its value, or its error
/// with the exit status the error maps to (2 bad input, 3 internal), into one JSON document
/// ({"value": V} or {"error": {"status", "kind", "message", "detail"}}); the parent opens it. A
/// child that died or sent nothing opens as an internal error saying how it ended. A child that
/// execs another trnsim (the sweep's workers) hands it child_result_fd() so that the new program
/// writes its envelope to the same pipe (hidden option --result-fd).
struct ChildResult {
  int status = 0;        // 0: `value` holds the result
  nlohmann::json value;  // the result
  std::string kind;      // a bad input's kind (ConfigError::kind: invalid-config, oom, ...); may be empty
  std::string message;   // the error's one line
  std::string detail;    // further lines of the error (may be empty)
  bool ok() const { return status == 0; }
  static ChildResult of(nlohmann::json v);
  static ChildResult error(int status, std::string message, std::string detail = "", std::string kind = "");
  /// The document the child writes to its pipe.
  std::string seal() const;
  /// The parent's reading of a child's outcome: the envelope it sent, whatever its exit
  /// status (an exec'd worker exits with its CLI status after sending an error).
  static ChildResult open(const ChildOutcome& c);
  /// Writes seal() to file descriptor `fd` (a forked child's pipe); false when it could not.
  bool send(int fd) const;
};

/// In a child of run_forked: the write end of its pipe (inherited by a program it execs);
/// -1 in a process that run_forked did not start.
int child_result_fd();

/// Thrown by run_forked when its `interrupted` check says so; the children are gone by then.
struct Interrupted : std::runtime_error {
  Interrupted() : std::runtime_error("interrupted") {}
};

/// Runs body(i) for i in [0, n), each in its own forked child, at most `jobs` at once. The
/// child sends the text body returns to the parent through a pipe and exits 0; when body
/// throws, it prints "trnsim: WHAT failed: MESSAGE" on stderr and exits 1. A body may exec
/// instead of returning: the pipe stays open in the new program, so the child counts as
/// finished when that program exits. `done(i, outcome)` runs in the parent as each child
/// finishes (in completion order). Throws std::runtime_error when pipe or fork fail.
///
/// No child outlives the parent: each child asks the kernel for SIGTERM when its parent dies
/// (PR_SET_PDEATHSIG, also after an exec; SIGKILL of the parent included) and exits at once if
/// the parent died before it asked; the parent's SIGINT / SIGTERM handler
/// (install_signal_cleanup, sim/base/output_file.h) forwards the signal to the running
/// children. A caller without that handler (the Python module) passes `interrupted`: when a
/// signal interrupts the wait and interrupted() returns true, the running children get SIGTERM,
/// are reaped, and run_forked throws Interrupted.
void run_forked(size_t n, const std::function<std::string(size_t)>& body, int jobs,
                const std::function<void(size_t, ChildOutcome&&)>& done, const std::string& what,
                const std::function<bool()>& interrupted = {});

/// Children started at once and collected later, so that the parent works meanwhile (`run`'s
/// perturbed simulations for its interval beside its own). The same guarantees as run_forked;
/// the destructor terminates and reaps the children not collected.
class ForkedBatch {
 public:
  ForkedBatch(size_t n, const std::function<std::string(size_t)>& body, const std::string& what);
  ~ForkedBatch();
  ForkedBatch(const ForkedBatch&) = delete;
  ForkedBatch& operator=(const ForkedBatch&) = delete;
  /// Waits for every child; their outcomes in index order.
  std::vector<ChildOutcome> collect();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace trn::sim
