// Chrome / Perfetto trace of a simulated step: a process per chip, a track per simulated
// rank and engine (tensor, vector, scalar, GpSimd, DMA, collectives, host), one complete
// ("X") event per op. Opens in ui.perfetto.dev or chrome://tracing with no set-up.
// (Issue 5 extends this: streaming, counters, link tracks, filters.)
#pragma once

#include <string>

#include "hw/system/program_runner.h"

namespace trn::app {

/// The trace as JSON text (deterministic: ranks, then ops in program order).
std::string chrome_trace(const hw::ProgramRunner& runner, const hw::System& sys);

}  // namespace trn::app
