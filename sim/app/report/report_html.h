// The self-contained HTML report: six figures (throughput and MFU against chips, first-step
// waterfall, steady-step breakdown, roofline, cumulative tokens), each with a caption saying
// what to notice, or a sentence saying which input would fill it. Inline CSS, SVG and a small
// inline script (no network); the same data gives byte-identical HTML.
#pragma once

#include <string>

#include "sim/app/report/report_data.h"

namespace trn::app::report {

/// Number of figures; the script sets <body data-plots-ok="N"> to how many have data.
constexpr int kFigures = 6;

std::string render_html(const ReportData& d);

}  // namespace trn::app::report
