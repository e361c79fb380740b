// Warnings: input that trnsim accepts but that probably does not mean what was written (a
// setting with no effect, a deprecated spelling). One line on standard error,
// "trnsim: warning: MESSAGE"; the command goes on. Each distinct message is printed once per
// process, however many times the input is loaded (startup loads a scenario per mode).
#pragma once

#include <string>

namespace trn::sim {

/// Prints "trnsim: warning: MESSAGE" on standard error unless this process printed it before.
void warn(const std::string& message);

}  // namespace trn::sim
