// CLI of `trnsim bench matmul`, `trnsim bench hbm` and `trnsim show`: options in, run_X,
// text on stdout, --json and --resolved files (sim/app/commands/bench_core.h).
#include <cstdio>
#include <memory>

#include "sim/app/cli/commands.h"
#include "sim/app/commands/bench_core.h"

namespace trn::app {

std::string write_chip_outputs(const CommonOptions& c, const nlohmann::ordered_json& doc,
                               const models::ChipSpec& chip) {
  std::string json = doc.dump(2) + "\n";
  write_outputs(c, json, models::resolved_yaml(chip, "# trnsim resolved configuration (chip " + chip.name + ")\n"));
  return json;
}

namespace {
struct MatmulCli {
  CommonOptions common;
  MatmulOptions mm;
};
struct HbmCli {
  CommonOptions common;
  HbmOptions hbm;
};
struct ShowCli {
  std::string kind;  // system | chip
  ShowOptions show;
};
}  // namespace

Runner add_bench_matmul(CLI::App* bench) {
  auto o = std::make_shared<MatmulCli>();
  auto* c = bench->add_subcommand("matmul", "Simulate one matmul C[M,N] = A[M,K] B[K,N] on one NeuronCore");
  c->add_option("--chip", o->mm.chip, "Chip name (hw/configs/chips) or YAML path")->capture_default_str();
  c->add_option("--m", o->mm.m, "Rows of A and C (elements)")->capture_default_str();
  c->add_option("--n", o->mm.n, "Columns of B and C (elements)")->capture_default_str();
  c->add_option("--k", o->mm.k, "Contraction size (elements)")->capture_default_str();
  c->add_option("--dtype", o->mm.dtype, "Input type: bf16, fp16, fp32, fp8, mxfp8, mxfp4")->capture_default_str();
  add_common(c, o->common);
  return [o]() -> int {
    MatmulOptions opt = o->mm;
    opt.sets = o->common.sets;
    parse_matmul(opt);  // bad options first, then unwritable outputs
    check_outputs(o->common);
    MatmulResult r = run_matmul(opt);
    write_matmul_text(r, summary_stream(o->common));
    write_chip_outputs(o->common, matmul_json(r), r.chip);
    return 0;
  };
}

Runner add_bench_hbm(CLI::App* bench) {
  auto o = std::make_shared<HbmCli>();
  auto* c = bench->add_subcommand("hbm", "Stream bytes from HBM into SBUF on N NeuronCores at once");
  c->add_option("--chip", o->hbm.chip, "Chip name (hw/configs/chips) or YAML path")->capture_default_str();
  c->add_option("--cores", o->hbm.cores, "Physical NeuronCores streaming at once (count)")->capture_default_str();
  c->add_option("--bytes", o->hbm.bytes, "Bytes each core reads, with a unit (e.g. 1GiB)")->capture_default_str();
  add_common(c, o->common);
  return [o]() -> int {
    HbmOptions opt = o->hbm;
    opt.sets = o->common.sets;
    parse_hbm(opt);  // bad options first, then unwritable outputs
    check_outputs(o->common);
    HbmResult r = run_hbm(opt);
    write_hbm_text(r, summary_stream(o->common));
    write_chip_outputs(o->common, hbm_json(r), r.chip);
    return 0;
  };
}

Runner add_show(CLI::App* app) {
  auto o = std::make_shared<ShowCli>();
  auto* c = app->add_subcommand("show", "Print the resolved configuration of a system or chip");
  c->add_option("kind", o->kind, "system | chip")->required()->check(CLI::IsMember({"system", "chip"}));
  c->add_option("name", o->show.name, "Name (hw/configs/...) or YAML path")->required();
  c->add_option("--set", o->show.sets, "Override any configuration key (repeatable)");
  return [o]() -> int {
    ShowOptions opt = o->show;
    opt.kind = sim::enum_of_word<ShowKind>(o->kind).value();  // system or chip (the option's check)
    std::fputs(run_show(opt).c_str(), stdout);
    return 0;
  };
}

}  // namespace trn::app
