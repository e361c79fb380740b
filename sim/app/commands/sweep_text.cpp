// The text and JSON of `trnsim sweep` and `trnsim merge` (sweep.h): the progress line, the
// summary table and counts, and the merge of shard databases.
#include <algorithm>
#include <cstdio>

#include "sim/app/commands/sweep.h"
#include "sim/base/config_reader.h"

namespace trn::app {

std::vector<std::string> sweep_column_headers(const std::vector<std::string>& columns) {
  auto last = [](const std::string& k) { return k.substr(k.rfind('.') == std::string::npos ? 0 : k.rfind('.') + 1); };
  std::vector<std::string> out;
  for (const auto& c : columns) {
    int same = 0;
    for (const auto& d : columns) same += last(d) == last(c);
    out.push_back(same > 1 ? c : last(c));
  }
  return out;
}

std::string point_status_text(storage::PointStatus status, const std::string& detail) {
  const std::string& word = sim::word_of(status);
  return detail.empty() ? word : word + " (" + detail + ")";
}

void write_sweep_progress(const SweepProgress& p, FILE* out) {
  std::fprintf(out, "[%zu/%zu] %s: %s  elapsed %.0fs  ETA %.0fs\n", p.done, p.total, p.point.c_str(), p.status.c_str(),
               p.elapsed_s, p.eta_s);
  std::fflush(out);
}

namespace {

std::string figure(double x, const char* fmt) {
  if (x < 0) return "-";
  char buf[32];
  std::snprintf(buf, sizeof buf, fmt, x);
  return buf;
}

// The table's cells: the axis values, then the figures of the command, then the status.
std::vector<std::vector<std::string>> table_cells(const SweepResult& r, size_t& figures) {
  const bool startup = r.command == SweepCommand::Startup;
  std::vector<std::string> head = sweep_column_headers(r.columns);
  if (startup) head.insert(head.end(), {"first eager (s)", "first compiled (s)"});
  head.insert(head.end(), {"step (s)", "tokens/s"});
  figures = startup ? 4 : 2;
  head.push_back("status");
  std::vector<std::vector<std::string>> rows = {head};
  for (const auto& p : r.table) {
    std::vector<std::string> cells = p.values;
    if (startup) cells.insert(cells.end(), {figure(p.first_eager_s, "%.1f"), figure(p.first_compiled_s, "%.1f")});
    cells.insert(cells.end(), {figure(p.step_time_s, "%.4f"), figure(p.tokens_per_s, "%.0f")});
    cells.push_back(point_status_text(p.status, p.detail));
    rows.push_back(cells);
  }
  return rows;
}

}  // namespace

void write_sweep_text(const SweepResult& r, FILE* out) {
  const std::string stale =
      r.stale ? ", " + std::to_string(r.stale) + " of them stale (inputs changed since their rows were stored)" : "";
  std::fprintf(out, "%s: %zu points, %zu run now%s (shard %d/%d), results in %s\n", r.name.c_str(), r.points, r.run,
               stale.c_str(), r.shard, r.shards, r.db.c_str());
  size_t figures = 0;
  const auto rows = table_cells(r, figures);
  std::vector<size_t> width(rows.front().size(), 0);
  for (const auto& row : rows)
    for (size_t c = 0; c < row.size(); ++c) width[c] = std::max(width[c], row[c].size());
  const size_t first_figure = r.columns.size(), last = rows.front().size() - 1;
  for (const auto& row : rows) {
    std::string line = " ";
    for (size_t c = 0; c < row.size(); ++c) {
      const bool right = c >= first_figure && c < first_figure + figures;  // numbers right-aligned
      const std::string pad(width[c] - row[c].size(), ' ');
      line += " " + (right ? pad + row[c] : c == last ? row[c] : row[c] + pad);
    }
    std::fprintf(out, "%s\n", line.c_str());
  }
  std::fprintf(out, "  %zu done, %zu infeasible, %zu failed\n", r.done, r.infeasible, r.failed);
}

nlohmann::ordered_json sweep_json(const SweepResult& r) {
  return {
      {"sweep", r.name},    {"points", r.points}, {"run", r.run},   {"stale", r.stale},           {"shard", r.shard},
      {"shards", r.shards}, {"db", r.db},         {"done", r.done}, {"infeasible", r.infeasible}, {"failed", r.failed}};
}

MergeResult run_merge(const MergeOptions& o) {
  for (const auto& in : o.inputs) storage::check_sweep_db(in);  // before the output database is created
  storage::SweepStore db(o.out, o.out);
  for (const auto& in : o.inputs) db.merge_from(in);
  return MergeResult{o.out, o.inputs.size()};
}

void write_merge_text(const MergeResult& r, FILE* out) {
  std::fprintf(out, "merged %zu databases into %s\n", r.inputs, r.out.c_str());
}

nlohmann::ordered_json merge_json(const MergeResult& r) { return {{"merged", r.inputs}, {"out", r.out}}; }

}  // namespace trn::app
