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

}  // namespace trn::app
