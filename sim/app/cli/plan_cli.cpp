// CLI of `trnsim plan`: options in (checked and converted to PlanOptions), run_plan, the text
// on stdout and the --json file (sim/app/plan/plan.h, docs/plan.md).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>

#include "sim/app/cli/commands.h"
#include "sim/app/cli/plan_options.h"
#include "sim/app/commands/common.h"
#include "sim/app/commands/documents.h"
#include "sim/app/plan/plan.h"
#include "sim/base/config_node.h"
#include "sim/base/output_file.h"
#include "sim/base/units.h"
#include "sim/base/warnings.h"

namespace trn::app {
namespace {

using sim::ConfigError;

double number(const std::string& text, const std::string& option, double lo) {
  char* end = nullptr;
  const double x = std::strtod(text.c_str(), &end);
  if (text.empty() || end != text.c_str() + text.size() || !std::isfinite(x) || !(x >= lo))
    throw ConfigError(sim::Location{option, 0, 0}, "",
                      "expected a number >= " + sim::format_double_exact(lo) + ", got '" + text + "'");
  return x;
}

// "5%" (or "5"): a share of 0 to `most` percent, as a fraction.
double percent(std::string text, const std::string& option, double most) {
  if (!text.empty() && text.back() == '%') text.pop_back();
  char* end = nullptr;
  const double x = std::strtod(text.c_str(), &end);
  if (text.empty() || end != text.c_str() + text.size() || !(x >= 0 && x <= most))
    throw ConfigError(
        sim::Location{option, 0, 0}, "",
        "expected a percentage from 0 to " + sim::format_double_exact(most) + ", e.g. 5%, got '" + text + "'");
  return x / 100;
}

std::vector<std::string> split(const std::string& text) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start <= text.size()) {
    size_t comma = text.find(',', start);
    out.push_back(text.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return out;
}

std::vector<int64_t> int_list(const std::string& text, const std::string& option) {
  std::vector<int64_t> out;
  for (const auto& item : split(text)) {
    const double x = number(item, option, 1);
    if (x != std::floor(x) || x > 1e12)
      throw ConfigError(sim::Location{option, 0, 0}, "", "expected whole numbers, got '" + item + "'");
    out.push_back(static_cast<int64_t>(x));
  }
  return out;
}

double quantity(const std::string& text, sim::Dim dim, const std::string& option) {
  std::string why;
  auto v = sim::parse_quantity(text, dim, &why);
  if (!v || !(*v > 0))
    throw ConfigError(sim::Location{option, 0, 0}, "",
                      (v ? "must be positive" : why) + "; expected " + sim::dim_expectation(dim));
  return *v;
}

// The search space options (docs/plan.md section 1): each narrows a default list.
void search_space(const PlanCli& cli, workloads::plan::SearchSpace& sp) {
  auto ints = [](const std::string& text, const char* option, std::vector<int>& out) {
    if (text.empty()) return;
    out.clear();
    for (int64_t x : int_list(text, option)) {
      if (x > 65536)
        throw ConfigError(sim::Location{option, 0, 0}, "", "expected at most 65536, got " + std::to_string(x));
      if (std::find(out.begin(), out.end(), int(x)) == out.end()) out.push_back(int(x));
    }
  };
  ints(cli.tp, "--tp", sp.tp);
  ints(cli.pp, "--pp", sp.pp);
  ints(cli.microbatch_sequences, "--microbatch-sequences", sp.microbatch_sequences);
  if (cli.max_fsdp < 1 || cli.max_fsdp > 65536)
    throw ConfigError(sim::Location{"--max-fsdp", 0, 0}, "", "expected 1 to 65536");
  sp.max_fsdp = cli.max_fsdp;
  if (cli.checkpointing.empty()) return;
  sp.checkpointing.clear();
  for (const auto& w : split(cli.checkpointing)) {
    const auto& words = workloads::enum_words(workloads::Checkpointing{});
    const auto it = std::find(words.begin(), words.end(), w);
    if (it == words.end()) {
      std::string expected;  // "a, b or c", from the enum's words
      for (size_t i = 0; i < words.size(); ++i)
        expected += (i == 0 ? "" : i + 1 == words.size() ? " or " : ", ") + words[i];
      throw ConfigError(sim::Location{"--checkpointing", 0, 0}, "",
                        "expected " + expected + " (comma-separated), got '" + w + "'");
    }
    const auto c = static_cast<workloads::Checkpointing>(it - words.begin());
    if (std::find(sp.checkpointing.begin(), sp.checkpointing.end(), c) == sp.checkpointing.end())
      sp.checkpointing.push_back(c);
  }
  // Lightest first: the checkpointing dominance (rule 3) keeps the first mode of a layout that fits.
  std::sort(sp.checkpointing.begin(), sp.checkpointing.end());
}

// --rank-by: time | cost, or time@Q | cost@Q with Q a quantile from 0.5 to 0.99.
void rank_by(const std::string& text, PlanOptions& p) {
  const size_t at = text.find('@');
  const auto word = sim::enum_of_word<RankBy>(text.substr(0, at));
  if (!word)
    throw ConfigError(
        sim::Location{"--rank-by", 0, 0}, "",
        "expected time, cost, chips, time@Q or cost@Q (Q a quantile from 0.5 to 0.99, e.g. time@0.9), got '" + text +
            "'");
  p.rank_by = *word;
  if (at == std::string::npos) return;
  if (p.rank_by == RankBy::Chips)
    throw ConfigError(sim::Location{"--rank-by", 0, 0}, "",
                      "a quantile ranks time or cost (time@Q, cost@Q), not chips; got '" + text + "'");
  char* end = nullptr;
  const std::string q = text.substr(at + 1);
  const double x = std::strtod(q.c_str(), &end);
  if (q.empty() || end != q.c_str() + q.size() || !(x >= 0.5 && x <= 0.99))
    throw ConfigError(sim::Location{"--rank-by", 0, 0}, "",
                      "expected a quantile from 0.5 to 0.99 after '@' (e.g. time@0.9), got '" + q + "'");
  p.rank_quantile = x;
}

}  // namespace

PlanOptions plan_options(const PlanCli& cli) {
  PlanOptions p;
  p.model = cli.model;
  p.tokens = number(cli.tokens, "--tokens", 1);
  if (p.tokens > 1e18) throw ConfigError(sim::Location{"--tokens", 0, 0}, "", "expected at most 1e18 tokens");
  for (const auto& s : split(cli.systems)) {
    if (s.empty())
      throw ConfigError(sim::Location{"--systems", 0, 0}, "", "empty system name in '" + cli.systems + "'");
    if (std::find(p.systems.begin(), p.systems.end(), s) == p.systems.end()) p.systems.push_back(s);
  }
  if (cli.min_chips < 1 || cli.max_chips < cli.min_chips || cli.max_chips > 65536)
    throw ConfigError(sim::Location{"--max-chips", 0, 0}, "", "expected 1 <= --min-chips <= --max-chips <= 65536");
  p.min_chips = cli.min_chips;
  p.max_chips = cli.max_chips;
  if (!cli.deadline.empty()) p.deadline_s = quantity(cli.deadline, sim::Dim::Time, "--deadline");
  if (!cli.budget.empty() && !cli.max_cost.empty())
    throw ConfigError(sim::Location{"--budget", 0, 0}, "", "give --max-cost alone (--budget is its old spelling)");
  if (!cli.budget.empty()) {
    sim::warn(
        "plan --budget is the old spelling of --max-cost (USD); --budget of startup and flexattention is a "
        "compile time");
    p.budget_usd = number(cli.budget, "--budget", 0);
  }
  if (!cli.max_cost.empty()) p.budget_usd = number(cli.max_cost, "--max-cost", 0);
  p.hbm_headroom = percent(cli.hbm_headroom, "--hbm-headroom", 90);
  for (const auto& pr : cli.prices) {
    auto eq = pr.find('=');
    if (eq == std::string::npos || eq == 0)
      throw ConfigError(sim::Location{"--price", 0, 0}, "", "expected SYSTEM=USD_PER_INSTANCE_HOUR, got '" + pr + "'");
    p.prices[pr.substr(0, eq)] = number(pr.substr(eq + 1), "--price " + pr.substr(0, eq), 0);
  }
  p.cache = sim::enum_of_word<workloads::CompileCache>(cli.cache).value();  // cold or warm (the option's check)
  if (cli.seq_len < 1 || cli.seq_len > 10000000)
    throw ConfigError(sim::Location{"--seq-len", 0, 0}, "", "expected 1 to 10,000,000 tokens");
  p.seq_len = cli.seq_len;
  if (!cli.global_batch.empty() && !cli.tokens_per_step.empty())
    throw ConfigError(sim::Location{"--global-batch", 0, 0}, "", "give --global-batch or --tokens-per-step, not both");
  if (!cli.global_batch.empty())
    p.global_batches = int_list(cli.global_batch, "--global-batch");
  else
    p.tokens_per_step = cli.tokens_per_step.empty() ? std::vector<int64_t>{4194304}
                                                    : int_list(cli.tokens_per_step, "--tokens-per-step");
  p.batch_tolerance = percent(cli.batch_tolerance, "--batch-tolerance", 100);
  if (cli.counts != "all" && cli.counts != "pow2")
    throw ConfigError(sim::Location{"--counts", 0, 0}, "", "expected all or pow2, got '" + cli.counts + "'");
  p.pow2_counts = cli.counts == "pow2";
  for (int64_t t : p.tokens_per_step)
    if (t % p.seq_len != 0)
      throw ConfigError(
          sim::Location{"--tokens-per-step", 0, 0}, "",
          std::to_string(t) + " tokens per step is not a multiple of --seq-len " + std::to_string(p.seq_len));
  if (cli.jobs < 1 || cli.jobs > 256) throw ConfigError(sim::Location{"--jobs", 0, 0}, "", "expected 1 to 256 workers");
  p.jobs = cli.jobs;
  p.db = cli.db;
  rank_by(cli.rank_by, p);
  if (p.rank_by == RankBy::Chips && p.deadline_s <= 0)
    throw ConfigError(sim::Location{"--rank-by chips", 0, 0}, "",
                      "ranking by chips needs --deadline: the fewest chips that train within it, e.g. --deadline 30d");
  p.exhaustive = cli.exhaustive;
  if (!cli.max_memory.empty()) p.max_memory = parse_size(cli.max_memory, "--max-memory");
  p.intervals = !cli.no_intervals;
  if (p.rank_quantile > 0 && !p.intervals)
    throw ConfigError(
        sim::Location{"--rank-by", 0, 0}, "",
        "'" + cli.rank_by + "' ranks by the 80 % intervals' quantile; it cannot be used with --no-intervals");
  p.sets = cli.sets;
  if (!cli.rate.empty()) p.restart.interruptions_per_chip_hour = number(cli.rate, "--interruption-rate", 0);
  if (!cli.write_bw.empty())
    p.restart.write_bandwidth = quantity(cli.write_bw, sim::Dim::Bandwidth, "--checkpoint-write-bw");
  if (!cli.read_bw.empty())
    p.restart.read_bandwidth = quantity(cli.read_bw, sim::Dim::Bandwidth, "--checkpoint-read-bw");
  if (!cli.interval.empty()) p.restart.interval_s = quantity(cli.interval, sim::Dim::Time, "--checkpoint-interval");
  search_space(cli, p.space);
  return p;
}

std::function<int()> add_plan(CLI::App* app) {
  auto o = std::make_shared<PlanCli>();
  auto* c = app->add_subcommand(
      "plan",
      "Search systems, chip counts and layouts for the fastest or cheapest way to train a model on a token budget");
  c->add_option("--model", o->model, "Model: zoo name (workloads/models), YAML path or Hugging Face config.json")
      ->required();
  c->add_option("--tokens", o->tokens, "Training tokens, e.g. 1e12")->required();
  c->add_option("--systems", o->systems,
                "Comma-separated systems of hw/configs/systems, e.g. trn2.48xlarge,trn2-ultraserver")
      ->required();
  c->add_option("--min-chips", o->min_chips, "Smallest job in chips")->capture_default_str();
  c->add_option("--max-chips", o->max_chips, "Largest job in chips (whole instances)")->capture_default_str();
  c->add_option("--counts", o->counts,
                "Instance counts to consider: pow2 (powers of two) | all (every count from --min-chips to "
                "--max-chips; can be much slower, docs/plan.md)")
      ->capture_default_str();
  c->add_option("--deadline", o->deadline,
                "Longest acceptable time to train, a time with unit, e.g. 30d or 720h (default: none)");
  c->add_option("--max-cost", o->max_cost, "Largest acceptable cost in USD, e.g. 5e6 (default: none)");
  c->add_option("--budget", o->budget, "Old spelling of --max-cost (USD), with a warning")->group("");
  c->add_option("--hbm-headroom", o->hbm_headroom,
                "Share of each rank's HBM a candidate must leave free, in percent, e.g. 10% (default: 5%)");
  c->add_option(
      "--price", o->prices,
      "SYSTEM=USD per instance-hour (repeatable; default: the public on-demand prices of docs/plan.md, where known)");
  c->add_option("--cache", o->cache, "Compile cache at the first start-up: cold | warm")
      ->check(CLI::IsMember({"cold", "warm"}))
      ->capture_default_str();
  c->add_option("--global-batch", o->global_batch, "Global batches to consider, sequences per step, comma-separated");
  c->add_option("--tokens-per-step", o->tokens_per_step,
                "Tokens per step to consider, comma-separated (default: 4194304, the Llama 2 batch; docs/plan.md)");
  c->add_option("--batch-tolerance", o->batch_tolerance,
                "Where no layout divides the global batch: use the nearest batch with one within this share of it, "
                "in percent, e.g. 10% (0: none; default: 15%)");
  c->add_option("--seq-len", o->seq_len, "Sequence length, tokens")->capture_default_str();
  c->add_option("--max-memory", o->max_memory,
                "Memory a point's simulation may estimate to hold, a size with unit, e.g. 8GiB; a point above it "
                "fails and is listed (default: half of this machine's RAM)");
  c->add_option("-j,--jobs", o->jobs, "Points simulated at once (forked processes)")->capture_default_str();
  c->add_option("--db", o->db, "Sweep database (SQLite) to store and reuse evaluated points (default: none)");
  c->add_option("--json", o->json, "Write the plan as JSON to FILE, or to standard output for '-' (default: none)");
  c->add_option("--rank-by", o->rank_by,
                "Rank by time to train or by cost: time | cost, or by a quantile Q (0.5 to 0.99) of its interval: "
                "time@Q | cost@Q, e.g. time@0.9 (the layout whose pessimistic time to train is best); or chips: the "
                "fewest chips that train within --deadline. Time and chips need no price: a system without one "
                "has its cost printed as unknown")
      ->capture_default_str();
  c->add_option(
      "--interruption-rate", o->rate,
      "Interruptions per chip-hour (default: 1.97e-05, Llama 3's 419 in 54 days on 16,384 accelerators; docs/plan.md)");
  c->add_option("--checkpoint-write-bw", o->write_bw,
                "Checkpoint write bandwidth per host, e.g. \"2.9 GB/s\" (default: 2.9 GB/s)");
  c->add_option("--checkpoint-read-bw", o->read_bw, "Checkpoint read bandwidth per host (default: 2.9 GB/s)");
  c->add_option("--checkpoint-interval", o->interval,
                "Checkpoint interval, a time with unit (default: Young/Daly optimum)");
  c->add_option("--tp", o->tp, "Tensor-parallel degrees to consider, comma-separated (default: 1,2,4,8,16,32)");
  c->add_option("--pp", o->pp, "Pipeline degrees to consider, comma-separated (default: 1,2,4,8,16)");
  c->add_option("--max-fsdp", o->max_fsdp, "Largest FSDP degree (powers of two up to it)")->capture_default_str();
  c->add_option("--microbatch-sequences", o->microbatch_sequences,
                "Sequences per micro-batch per replica to consider, comma-separated (default: 1,2)");
  c->add_option("--checkpointing", o->checkpointing,
                "Activation checkpointing modes to consider: none, selective, selective_mlp, full, comma-separated "
                "(default: none, selective, full)");
  c->add_flag("--no-intervals", o->no_intervals,
              "Skip the 80 % intervals of the best three candidates and their extra simulations (default: on)");
  c->add_flag("--exhaustive", o->exhaustive,
              "Simulate every layout that fits in memory: no bound or dominance pruning");
  c->add_option("--set", o->sets,
                "Override a key of every point's scenario, e.g. --set model.num_layers=8 (repeatable)");
  return [o]() -> int {
    if (!o->json.empty() && !is_stdout(o->json)) sim::check_writable(o->json, "--json");
    const PlanResult r = run_plan(plan_options(*o));
    std::fputs(plan_text(r).c_str(), is_stdout(o->json) ? stderr : stdout);
    if (is_stdout(o->json))
      write_output(o->json, plan_json(r).dump(2) + "\n");
    else if (!o->json.empty())
      sim::write_files_atomic({{o->json, plan_json(r).dump(2) + "\n"}}, {"--json"});
    return 0;
  };
}

}  // namespace trn::app
