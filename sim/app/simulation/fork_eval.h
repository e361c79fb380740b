// Runs functions that simulate in forked children and brings their results back to the parent
// in the one envelope of sim/base/fork_pool.h (SystemC elaborates once per process; see
// docs/adr/0002).
#pragma once

#include <nlohmann/json.hpp>

#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "sim/base/config_node.h"
#include "sim/base/fork_pool.h"

namespace trn::app {

/// A child's error as its envelope: status 2 for bad input (sim::ConfigError, the memory
/// guard), 3 for anything else.
sim::ChildResult error_result(const std::exception& e);

/// The envelope of what `body` returns, or of the error it throws (error_result): the child's
/// side of run_children and ForkedBatch.
std::string sealed(const std::function<nlohmann::json()>& body);

/// Runs each body in its own forked child, at most `jobs` at a time, and returns each child's
/// result in order: its value, or the error it threw or how it died. Throws std::runtime_error
/// only when pipe or fork fail.
std::vector<sim::ChildResult> run_children(const std::vector<std::function<nlohmann::json()>>& bodies,
                                           const std::string& what, int jobs);

/// A failed child's result as the parent's exception: MemoryGuardError for the memory guard,
/// sim::ConfigError for other bad input (status 2), std::runtime_error naming `what` otherwise.
[[noreturn]] void rethrow(const sim::ChildResult& r, const std::string& what);

/// run_children with typed values (through nlohmann::json; doubles survive exactly). Throws the
/// first failed child's error (rethrow).
template <class T>
std::vector<T> run_in_children(const std::vector<std::function<T()>>& bodies, const std::string& what, int jobs) {
  std::vector<std::function<nlohmann::json()>> js;
  js.reserve(bodies.size());
  for (const auto& b : bodies) js.push_back([&b]() { return nlohmann::json(b()); });
  std::vector<T> out;
  for (const sim::ChildResult& r : run_children(js, what, jobs)) {
    if (!r.ok()) rethrow(r, what);
    out.push_back(r.value.get<T>());
  }
  return out;
}

/// One body in one child.
std::vector<double> run_in_child(const std::function<std::vector<double>()>& body, const std::string& what);

}  // namespace trn::app
