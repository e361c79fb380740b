// `trnsim bench matmul` and `trnsim bench hbm`: one chip, NeuronCore programs on the
// SystemC models, compared with the closed-form cost models.
#include <nlohmann/json.hpp>

#include <cstdio>
#include <memory>

#include "hw/system/system.h"
#include "models/cost/engine_cost.h"
#include "models/kernels/matmul_kernel.h"
#include "sim/app/commands.h"
#include "sim/base/output_file.h"
#include "sim/base/paths.h"
#include "sim/kernel/event_queue.h"

namespace trn::app {
namespace {

sim::Location opt_loc(const std::string& o) { return sim::Location{o, 0, 0}; }

struct MatmulOpts {
  CommonOptions common;
  std::string chip = "trn2", dtype = "bf16";
  int64_t m = 4096, n = 4096, k = 4096;
};

struct HbmOpts {
  CommonOptions common;
  std::string chip = "trn2", bytes = "1GiB";
  int cores = 1;
};

void check_dim(int64_t v, const char* name) {
  if (v < 1 || v > (int64_t{1} << 24))
    throw sim::ConfigError(opt_loc(name), "", "expected 1 to 16777216, got " + std::to_string(v));
}

}  // namespace

Runner add_bench_matmul(CLI::App* bench) {
  auto o = std::make_shared<MatmulOpts>();
  auto* c = bench->add_subcommand("matmul", "Simulate one matmul C[M,N] = A[M,K] B[K,N] on one NeuronCore");
  c->add_option("--chip", o->chip, "Chip name (hw/configs/chips) or YAML path")->capture_default_str();
  c->add_option("--m", o->m, "Rows of A and C (elements)")->capture_default_str();
  c->add_option("--n", o->n, "Columns of B and C (elements)")->capture_default_str();
  c->add_option("--k", o->k, "Contraction size (elements)")->capture_default_str();
  c->add_option("--dtype", o->dtype, "Input type: bf16, fp16, fp32, fp8, mxfp8, mxfp4")->capture_default_str();
  add_common(c, o->common);
  return [o]() -> int {
    models::DType dt;
    if (!models::parse_dtype(o->dtype, &dt) || dt == models::DType::UINT8)
      throw sim::ConfigError(opt_loc("--dtype"), "", "unknown dtype '" + o->dtype + "': expected bf16, fp16, fp32, fp8, mxfp8, mxfp4");
    check_dim(o->m, "--m");
    check_dim(o->n, "--n");
    check_dim(o->k, "--k");
    check_outputs(o->common);
    models::ChipSpec chip = models::load_chip(o->chip, o->common.sets);
    if ((dt == models::DType::MXFP8 || dt == models::DType::MXFP4) && chip.tensor.mx_pairs_per_pe <= 1)
      throw sim::ConfigError(opt_loc("--dtype"), "", "dtype " + o->dtype + " needs MX matmul support, which " +
                                                          chip.name + " does not have (tensor.mx_pairs_per_pe = 1)");
    models::MatmulShape shape{o->m, o->n, o->k, dt};
    models::MatmulKernel kern = models::lower_matmul(chip, shape);
    auto sys = std::make_unique<hw::System>("system", models::single_chip_system(chip), 1);
    hw::NeuronCore& core = sys->add_core(0, 0, kern.program);
    sim::run_to_completion();
    const double t = core.finish_time();
    const double peak = models::tensor_peak_flops(chip.tensor, dt);
    const double tflops = kern.cost.flops / t / 1e12;
    const double util = kern.cost.flops / (t * peak);
    std::printf("%s NeuronCore, matmul M=%lld N=%lld K=%lld %s\n", chip.name.c_str(), static_cast<long long>(o->m),
                static_cast<long long>(o->n), static_cast<long long>(o->k), models::dtype_name(dt));
    std::printf("  tiling        : %lld m-tiles x %lld n-tiles x %lld k-tiles (K %lld per instruction)\n",
                static_cast<long long>(kern.cost.m_tiles), static_cast<long long>(kern.cost.n_tiles),
                static_cast<long long>(kern.cost.k_tiles), static_cast<long long>(kern.cost.k_per_instruction));
    std::printf("  instructions  : %lld MultiplyMoving, %lld LoadStationary\n",
                static_cast<long long>(kern.cost.matmul_instructions), static_cast<long long>(kern.cost.load_stationary));
    std::printf("  tensor cycles : %.0f (%.1f per instruction) + throttle %.2f us\n", kern.cost.cycles,
                kern.cost.cycles / static_cast<double>(kern.cost.matmul_instructions), kern.cost.throttle_s * 1e6);
    std::printf("  cost model    : %.2f us (tensor engine alone)\n", kern.cost.time_s * 1e6);
    std::printf("  simulated     : %.2f us (with DMA, PSUM evacuation, dependencies; %zu ops)\n", t * 1e6,
                kern.program.ops.size());
    std::printf("  DMA traffic   : %s (B resident in SBUF: %s, %lld columns per block)\n",
                sim::format_quantity(kern.dma_bytes, sim::Dim::Bytes).c_str(), kern.b_resident ? "yes" : "no",
                static_cast<long long>(kern.n_block));
    std::printf("  throughput    : %.2f TFLOPS of %.2f peak = %.1f%% utilisation\n", tflops, peak / 1e12, util * 100);
    nlohmann::ordered_json js = {{"time_s", t},
                                 {"tflops", tflops},
                                 {"utilization", util},
                                 {"peak_tflops", peak / 1e12},
                                 {"cost_model_time_s", kern.cost.time_s},
                                 {"tensor_cycles", kern.cost.cycles},
                                 {"matmul_instructions", kern.cost.matmul_instructions},
                                 {"dma_bytes", kern.dma_bytes}};
    write_outputs(o->common, js.dump(2) + "\n",
                  models::resolved_yaml(chip, "# trnsim resolved configuration (chip " + chip.name + ")\n"));
    return 0;
  };
}

Runner add_bench_hbm(CLI::App* bench) {
  auto o = std::make_shared<HbmOpts>();
  auto* c = bench->add_subcommand("hbm", "Stream bytes from HBM into SBUF on N NeuronCores at once");
  c->add_option("--chip", o->chip, "Chip name (hw/configs/chips) or YAML path")->capture_default_str();
  c->add_option("--cores", o->cores, "Physical NeuronCores streaming at once (count)")->capture_default_str();
  c->add_option("--bytes", o->bytes, "Bytes each core reads, with a unit (e.g. 1GiB)")->capture_default_str();
  add_common(c, o->common);
  return [o]() -> int {
    double bytes = parse_size(o->bytes, "--bytes");
    check_outputs(o->common);
    models::ChipSpec chip = models::load_chip(o->chip, o->common.sets);
    if (o->cores < 1 || o->cores > chip.cores.physical)
      throw sim::ConfigError(opt_loc("--cores"), "", "expected 1 to " + std::to_string(chip.cores.physical) +
                                                          " cores on " + chip.name + ", got " + std::to_string(o->cores));
    auto sys = std::make_unique<hw::System>("system", models::single_chip_system(chip), 1);
    std::vector<hw::NeuronCore*> cores;
    for (int i = 0; i < o->cores; ++i) cores.push_back(&sys->add_core(0, i, models::lower_hbm_stream(chip, bytes)));
    sim::run_to_completion();
    double t = 0;
    for (auto* c2 : cores) t = std::max(t, c2->finish_time());
    const double bw = bytes * o->cores / t;
    const double one_core = chip.dma.core_bandwidth();
    const double stack = models::hbm_stack_bandwidth(chip.hbm);
    std::printf("%s, %d NeuronCore(s) each reading %s from HBM\n", chip.name.c_str(), o->cores,
                sim::format_quantity(bytes, sim::Dim::Bytes).c_str());
    std::printf("  time            : %.2f us\n", t * 1e6);
    std::printf("  bandwidth       : %s (%.1f%% of the chip's %s HBM)\n", sim::format_quantity(bw, sim::Dim::Bandwidth).c_str(),
                100 * bw / chip.hbm.bandwidth.v, sim::format_quantity(chip.hbm.bandwidth.v, sim::Dim::Bandwidth).c_str());
    std::printf("  limits          : one core's DMA %s; one stack %s shared by %d cores\n",
                sim::format_quantity(one_core, sim::Dim::Bandwidth).c_str(),
                sim::format_quantity(stack, sim::Dim::Bandwidth).c_str(), chip.cores_per_stack());
    nlohmann::ordered_json js = {{"time_s", t}, {"bandwidth_Bps", bw}, {"cores", o->cores}, {"bytes_per_core", bytes}};
    write_outputs(o->common, js.dump(2) + "\n",
                  models::resolved_yaml(chip, "# trnsim resolved configuration (chip " + chip.name + ")\n"));
    return 0;
  };
}

Runner add_show(CLI::App* app) {
  auto what = std::make_shared<std::string>();
  auto name = std::make_shared<std::string>();
  auto sets = std::make_shared<std::vector<std::string>>();
  auto* c = app->add_subcommand("show", "Print the resolved configuration of a system or chip");
  c->add_option("kind", *what, "system | chip")->required()->check(CLI::IsMember({"system", "chip"}));
  c->add_option("name", *name, "Name (hw/configs/...) or YAML path")->required();
  c->add_option("--set", *sets, "Override any configuration key (repeatable)");
  return [what, name, sets]() -> int {
    // Resolve the name here so that errors name "show system"/"show chip", not an option
    // this command does not have.
    std::string path = sim::resolve_named_config(*name, "hw/configs/" + *what + "s", *what,
                                                 sim::Location{"show " + *what, 0, 0});
    if (*what == "system") {
      auto s = models::load_system(path, *sets, 0);
      std::fputs(models::resolved_yaml(s, "# resolved system " + s.name + "\n").c_str(), stdout);
    } else {
      auto c2 = models::load_chip(path, *sets);
      std::fputs(models::resolved_yaml(c2, "# resolved chip " + c2.name + "\n").c_str(), stdout);
    }
    return 0;
  };
}

}  // namespace trn::app
