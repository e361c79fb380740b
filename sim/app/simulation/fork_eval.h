// Runs a function that simulates in a forked child and returns its numeric results to
// the parent through a pipe (SystemC elaborates once per process; see docs/adr/0002).
#pragma once

#include <functional>
#include <string>
#include <vector>

namespace trn::app {

/// Forks; the child runs `body` and sends back the values it returns. Throws
/// std::runtime_error (naming `what`) when the child fails or returns nothing.
std::vector<double> run_in_child(const std::function<std::vector<double>()>& body, const std::string& what);

/// Runs each body in its own forked child, at most `jobs` at a time, and returns their texts
/// in order. Throws std::runtime_error (naming `what`) when a child fails.
std::vector<std::string> run_in_children(const std::vector<std::function<std::string()>>& bodies,
                                         const std::string& what, int jobs);

}  // namespace trn::app
