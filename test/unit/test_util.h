// Helpers shared by the unit tests.
#pragma once

#include <functional>
#include <string>

#include "sim/base/config_loader.h"

namespace trn::test {

/// The message of the ConfigError that `f` throws, or "(no error)" when it throws none.
inline std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const sim::ConfigError& e) {
    return e.what();
  }
  return "(no error)";
}

}  // namespace trn::test
