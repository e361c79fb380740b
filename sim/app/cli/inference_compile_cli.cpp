// CLI of `trnsim inference-compile`: options in, run_inference_compile, text on stdout, --json
// file (sim/app/commands/inference_compile.h).
#include <cstdio>
#include <memory>

#include "sim/app/cli/commands.h"
#include "sim/app/commands/inference_compile.h"

namespace trn::app {

Runner add_inference_compile(CLI::App* app) {
  struct Opts {
    CommonOptions common;
    InferenceCompileOptions ic;
    bool no_intervals = false;
  };
  auto o = std::make_shared<Opts>();
  InferenceCompileOptions& s = o->ic;
  auto* c = app->add_subcommand(
      "inference-compile",
      "How long NxD Inference's model.compile() takes for a model at a TP degree, batch and sequence, as the compile "
      "fit predicts its contributed models' compile times");
  c->add_option("--model", s.model,
                "The model: zoo name, YAML, config.json, Hugging Face model directory, or an NxD Inference contributed "
                "model of workloads/calibration/compile_models.yaml (nxdi-...) (default: none, required)");
  c->add_option("--tp", s.job.tp, "Tensor-parallel degree, ranks (NxD Inference's tp_degree)")->capture_default_str();
  c->add_option("--batch", s.job.batch, "Batch, sequences per graph (batch_size)")->capture_default_str();
  c->add_option("--seq", s.job.seq, "Sequence length, tokens (seq_len) (default: none, required)");
  c->add_flag("--buckets", s.job.buckets,
              "Bucketing on (enable_bucketing): a graph per power of two from 128 tokens below --seq, and --seq "
              "(default: off)");
  c->add_option("--cte-buckets", s.job.cte_buckets,
                "Context-encoding buckets (context_encoding_buckets): increasing lengths up to --seq, e.g. "
                "512,1024,2048 (default: from --seq and --buckets)")
      ->delimiter(',');
  c->add_option("--tkg-buckets", s.job.tkg_buckets,
                "Token-generation buckets (token_generation_buckets): increasing lengths up to --seq, e.g. 4096 "
                "(default: from --seq and --buckets)")
      ->delimiter(',');
  c->add_flag("--own-compiler-args", s.job.own_compiler_args,
              "The model passes its own compiler arguments (get_compiler_args): both graphs at -O1, one module each "
              "(default: NxD Inference's arguments)");
  c->add_option("--sdk", s.sdk, "Neuron SDK release of the compiler, e.g. 2.28 (default: the current release)");
  c->add_option("--system", s.system, "The system whose host server compiles (hw/configs/systems)")
      ->capture_default_str();
  c->add_flag("--no-intervals", o->no_intervals, "Skip the 80 % interval (default: interval on)");
  c->add_option("--set", o->common.sets,
                "Override a key of a zoo, YAML or config.json model, e.g. --set num_layers=2 (repeatable; quantities "
                "need units; default: none)");
  c->add_option("--json", o->common.json,
                "Write the graphs and the compile time as JSON to FILE, or to standard output for '-' (SI units; "
                "default: none)");
  return [o]() -> int {
    check_outputs(o->common);
    InferenceCompileOptions opt = o->ic;
    opt.sets = o->common.sets;
    opt.intervals = !o->no_intervals;
    InferenceCompileResult r = run_inference_compile(opt);
    write_inference_compile_text(r, summary_stream(o->common));
    write_outputs(o->common, inference_compile_json(r).dump(2) + "\n", "");
    return 0;
  };
}

}  // namespace trn::app
