// job_source (quick_layout.h): a scenario as given, or the quick search's layout for a model on
// a system (docs/plan.md section 8).
#include "sim/app/plan/quick_layout.h"

#include <algorithm>
#include <cstdio>
#include <limits>
#include <set>

#include "models/spec/system_spec.h"
#include "sim/app/analysis/step_analysis.h"
#include "sim/app/plan/step_bound.h"
#include "sim/base/config_loader.h"
#include "sim/base/paths.h"
#include "workloads/memory/memory_model.h"
#include "workloads/plan/plan_model.h"

namespace trn::app {
namespace {

using sim::ConfigError;
namespace wp = workloads::plan;

constexpr double kHeadroom = 0.05;  // of HBM left free, as plan's default --hbm-headroom
constexpr int64_t kSeqLen = 4096;   // tokens per sequence, as plan's default --seq-len

struct Candidate {
  wp::PlanLayout layout;
  std::vector<std::string> sets;
  workloads::ScenarioSpec spec;
  double flop_lb = 0;
};

// The model's --set overrides (model.X), applied to the model the search divides.
std::vector<std::string> model_sets(const std::vector<std::string>& sets) {
  std::vector<std::string> out;
  for (const auto& s : sets)
    if (s.rfind("model.", 0) == 0) out.push_back(s.substr(6));
  return out;
}

// The layouts of the plan's search space that load and fit with the headroom, lightest
// checkpointing of each layout only (a heavier mode of a layout that fits is slower: rule 3).
std::vector<Candidate> fitting_layouts(const std::string& model, const wp::PlanPoint& base,
                                       const std::vector<wp::PlanLayout>& layouts,
                                       const std::vector<std::string>& user_sets, int& fitting) {
  std::vector<Candidate> out;
  std::set<std::string> fitted;
  for (const auto& l : layouts) {
    if (fitted.count(l.text(false))) continue;
    wp::PlanPoint p = base;
    p.layout = l;
    Candidate c{l, p.sets(), {}, 0};
    c.sets.insert(c.sets.end(), user_sets.begin(), user_sets.end());
    try {
      c.spec = workloads::load_scenario(sim::data_root() + "/workloads/plan/base.yaml", c.sets, model);
    } catch (const ConfigError&) {
      continue;  // the user's --set made this layout invalid
    }
    const workloads::MemoryReport m = workloads::memory_per_rank(c.spec);
    if (m.total > m.capacity * (1 - kHeadroom)) continue;
    fitted.insert(l.text(false));
    c.flop_lb = wp::step_time_lower_bound(c.spec, model_flops_per_step(c.spec));
    out.push_back(std::move(c));
  }
  fitting = static_cast<int>(out.size());
  return out;
}

// The candidate with the smallest schedule bound (rule 6), best FLOP bound first: a candidate
// whose FLOP bound is above the best schedule bound so far cannot beat it. Ties: the layout text.
const Candidate& best_bound(std::vector<Candidate>& cands, double& best) {
  std::sort(cands.begin(), cands.end(), [](const Candidate& a, const Candidate& b) {
    return a.flop_lb != b.flop_lb ? a.flop_lb < b.flop_lb : a.layout.text() < b.layout.text();
  });
  StepBounder bounder;
  best = std::numeric_limits<double>::infinity();
  const Candidate* winner = &cands.front();
  for (const auto& c : cands) {
    if (c.flop_lb > best) break;
    double bound = c.flop_lb;
    try {
      bound = std::max(bound, bounder.step_lower_bound(c.spec));
    } catch (const std::exception&) {
      // no schedule for this layout: its FLOP bound stands, as in plan
    }
    if (bound < best || (bound == best && c.layout.text() < winner->layout.text())) best = bound, winner = &c;
  }
  return *winner;
}

std::string layout_words(const wp::PlanLayout& l) {
  return "tp=" + std::to_string(l.tp) + " pp=" + std::to_string(l.pp) + " (microbatches " +
         std::to_string(l.microbatches) + ") dp=" + std::to_string(l.dp) + " fsdp=" + std::to_string(l.fsdp) +
         " ep=" + std::to_string(l.ep) + ", checkpointing " + workloads::enum_word(l.checkpointing);
}

// The quick search's job for `model` on `chips` chips of `system` (docs/plan.md section 8).
JobSource quick_job(const std::string& model, const std::string& system, int chips,
                    const std::vector<std::string>& sets) {
  const workloads::ModelSpec m = workloads::load_model(model, model_sets(sets));
  const models::SystemSpec sys = models::load_system(system, {});
  const int n = chips == 0 ? 1 : chips / sys.chips;
  if (chips != 0 && (chips % sys.chips != 0 || n < 1))
    throw ConfigError(sim::Location{"--chips", 0, 0}, "",
                      "expected a multiple of " + std::to_string(sys.chips) + " (the chips of one " + sys.name +
                          "), got " + std::to_string(chips));
  wp::PlanPoint base;
  base.system = sys.name;
  base.instances = n;
  base.chips = sys.chips * n;
  base.seq_len = std::min<int64_t>(kSeqLen, m.max_position);
  base.global_batch = base.chips;  // one sequence per chip
  const int lnc = sys.chip.cores.default_lnc;
  const int per_instance = sys.chips * (sys.chip.cores.physical / lnc);
  const wp::SearchSpace space;
  auto layouts = wp::enumerate_layouts(m, space, per_instance * n, per_instance, base.global_batch, lnc);
  if (layouts.empty()) {
    base.global_batch = wp::next_batch_with_layouts(m, space, per_instance * n, per_instance, base.global_batch, lnc);
    if (base.global_batch > 0)
      layouts = wp::enumerate_layouts(m, space, per_instance * n, per_instance, base.global_batch, lnc);
  }
  int fitting = 0;
  std::vector<Candidate> cands = fitting_layouts(model, base, layouts, sets, fitting);
  if (cands.empty())
    throw ConfigError(sim::Location{"--model", 0, 0}, "",
                      m.name + " has no layout on " + std::to_string(base.chips) + " chips of " + sys.name +
                          " that fits in HBM with 5% headroom (" + std::to_string(layouts.size()) +
                          " layouts tried); try more --chips or a larger system");
  double bound = 0;
  const Candidate& w = best_bound(cands, bound);
  JobSource out;
  out.scenario = sim::data_root() + "/workloads/plan/base.yaml";
  out.sets = w.sets;
  out.sets.insert(out.sets.begin(), "name=" + m.name + "-" + sys.name + (n > 1 ? "-x" + std::to_string(n) : ""));
  out.model = model;
  char buf[512];
  std::snprintf(buf, sizeof buf,
                "  chosen       %s, %lld sequences x %lld tokens: the smallest step bound (%.3f s) of the %d of %zu "
                "layouts that fit with 5%% HBM headroom (planner's quick search, docs/plan.md 8)\n",
                layout_words(w.layout).c_str(), static_cast<long long>(base.global_batch),
                static_cast<long long>(base.seq_len), bound, fitting, layouts.size());
  out.note = buf;
  return out;
}

}  // namespace

JobSource job_source(const std::string& scenario, const std::string& model, const std::string& system, int chips,
                     const std::vector<std::string>& sets) {
  if (!scenario.empty()) {
    if (!system.empty())
      throw ConfigError(sim::Location{"--system", 0, 0}, "",
                        "chooses a layout for --model without a scenario; with a scenario, use --set system=NAME");
    if (chips != 0)
      throw ConfigError(sim::Location{"--chips", 0, 0}, "",
                        "goes with --model and --system without a scenario; with a scenario, use --set "
                        "system.instances=N");
    return JobSource{scenario, sets, model, "", !model.empty()};
  }
  if (model.empty() || system.empty())
    throw ConfigError(sim::Location{"argument SCENARIO", 0, 0}, "",
                      "missing: give a scenario (name or YAML), or --model M --system S to have the layout chosen");
  if (chips < 0) throw ConfigError(sim::Location{"--chips", 0, 0}, "", "expected a positive number of chips");
  return quick_job(model, system, chips, sets);
}

std::string kept_settings_note(const workloads::ScenarioSpec& s) {
  char buf[512];
  std::snprintf(buf, sizeof buf,
                "  --model      %s replaces the scenario's model; kept from %s: layout tp=%d pp=%d dp=%d fsdp=%d "
                "ep=%d, batch %lld x %lld, checkpointing %s, precision %s, %s mode (--model M --system S without a "
                "scenario chooses them for M)\n",
                s.model.name.c_str(), s.name.c_str(), s.parallel.tp, s.parallel.pp, s.parallel.dp, s.parallel.fsdp,
                s.parallel.ep, static_cast<long long>(s.batch.sequences()), static_cast<long long>(s.batch.seq_len),
                sim::word_of(s.checkpointing).c_str(), workloads::enum_word(s.precision.compute).c_str(),
                sim::word_of(s.mode).c_str());
  return buf;
}

}  // namespace trn::app
