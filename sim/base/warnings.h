// Warnings: input that trnsim accepts but that probably does not mean what was written (a
// setting with no effect, a deprecated spelling). One line on standard error,
// "trnsim: warning: MESSAGE"; the command goes on. Each distinct message is printed once per
// process, however many times the input is loaded (startup loads a scenario per mode).
// Also whether progress and status lines go to standard error (a terminal, or forced).
#pragma once

#include <string>

namespace trn::sim {

/// Prints "trnsim: warning: MESSAGE" on standard error unless this process printed it before.
void warn(const std::string& message);

/// Whether progress and status lines (a run's progress, the plan's status line, a sweep's
/// point lines in the Python module) are drawn on standard error: when it is a terminal,
/// unless force_progress_on_stderr said otherwise in this process.
bool progress_on_stderr();
/// Forces progress_on_stderr() to `on` in this process (the Python module's progress=).
void force_progress_on_stderr(bool on);

}  // namespace trn::sim
