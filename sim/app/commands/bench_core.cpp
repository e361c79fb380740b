// `trnsim bench matmul`, `bench hbm` and `show` (bench_core.h).
#include "sim/app/commands/bench_core.h"

#include <cstdio>
#include <memory>

#include "hw/system/system.h"
#include "models/cost/engine_cost.h"
#include "models/kernels/matmul_kernel.h"
#include "sim/app/commands/common.h"
#include "sim/app/commands/documents.h"
#include "sim/base/paths.h"
#include "sim/kernel/event_queue.h"

namespace trn::app {
namespace {

void check_dim(int64_t v, const char* name) {
  if (v < 1 || v > (int64_t{1} << 24))
    throw sim::ConfigError(sim::Location{name, 0, 0}, "", "expected 1 to 16777216, got " + std::to_string(v));
}

}  // namespace

models::DType parse_matmul(const MatmulOptions& o) {
  models::DType dt;
  if (!models::parse_dtype(o.dtype, &dt) || dt == models::DType::UINT8)
    throw sim::ConfigError(sim::Location{"--dtype", 0, 0}, "",
                           "unknown dtype '" + o.dtype + "': expected bf16, fp16, fp32, fp8, mxfp8, mxfp4");
  check_dim(o.m, "--m");
  check_dim(o.n, "--n");
  check_dim(o.k, "--k");
  return dt;
}

MatmulResult run_matmul(const MatmulOptions& o) {
  const models::DType dt = parse_matmul(o);
  MatmulResult r;
  r.chip = models::load_chip(o.chip, o.sets);
  if ((dt == models::DType::MXFP8 || dt == models::DType::MXFP4) && r.chip.tensor.mx_pairs_per_pe <= 1)
    throw sim::ConfigError(sim::Location{"--dtype", 0, 0}, "",
                           "dtype " + o.dtype + " needs MX matmul support, which " + r.chip.name +
                               " does not have (tensor.mx_pairs_per_pe = 1)");
  r.shape = models::MatmulShape{o.m, o.n, o.k, dt};
  r.kernel = models::lower_matmul(r.chip, r.shape);
  auto sys = std::make_unique<hw::System>("system", models::single_chip_system(r.chip), 1);
  hw::NeuronCore& core = sys->add_core(0, 0, r.kernel.program);
  sim::run_to_completion();
  r.time_s = core.finish_time();
  r.peak = models::tensor_peak_flops(r.chip.tensor, dt);
  r.tflops = r.kernel.cost.flops / r.time_s / 1e12;
  r.utilization = r.kernel.cost.flops / (r.time_s * r.peak);
  r.inputs_hash = inputs_hash("command: bench matmul\nm: " + std::to_string(o.m) + "\nn: " + std::to_string(o.n) +
                              "\nk: " + std::to_string(o.k) + "\ndtype: " + models::dtype_name(dt) + "\nchip:\n" +
                              models::resolved_yaml(r.chip, ""));
  return r;
}

void write_matmul_text(const MatmulResult& r, FILE* out) {
  const auto& cost = r.kernel.cost;
  std::fprintf(out, "%s NeuronCore, matmul M=%lld N=%lld K=%lld %s\n", r.chip.name.c_str(),
               static_cast<long long>(r.shape.m), static_cast<long long>(r.shape.n), static_cast<long long>(r.shape.k),
               models::dtype_name(r.shape.dtype));
  std::fprintf(out, "  tiling        : %lld m-tiles x %lld n-tiles x %lld k-tiles (K %lld per instruction)\n",
               static_cast<long long>(cost.m_tiles), static_cast<long long>(cost.n_tiles),
               static_cast<long long>(cost.k_tiles), static_cast<long long>(cost.k_per_instruction));
  std::fprintf(out, "  instructions  : %lld MultiplyMoving, %lld LoadStationary\n",
               static_cast<long long>(cost.matmul_instructions), static_cast<long long>(cost.load_stationary));
  std::fprintf(out, "  tensor cycles : %.0f (%.1f per instruction) + throttle %.2f us\n", cost.cycles,
               cost.cycles / static_cast<double>(cost.matmul_instructions), cost.throttle_s * 1e6);
  std::fprintf(out, "  cost model    : %.2f us (tensor engine alone)\n", cost.time_s * 1e6);
  std::fprintf(out, "  simulated     : %.2f us (with DMA, PSUM evacuation, dependencies; %zu ops)\n", r.time_s * 1e6,
               r.kernel.program.ops.size());
  std::fprintf(out, "  DMA traffic   : %s (B resident in SBUF: %s, %lld columns per block)\n",
               sim::format_quantity(r.kernel.dma_bytes, sim::Dim::Bytes).c_str(), r.kernel.b_resident ? "yes" : "no",
               static_cast<long long>(r.kernel.n_block));
  std::fprintf(out, "  throughput    : %.2f TFLOPS of %.2f peak = %.1f%% utilisation\n", r.tflops, r.peak / 1e12,
               r.utilization * 100);
}

nlohmann::ordered_json matmul_json(const MatmulResult& r) {
  const nlohmann::ordered_json js = {{"chip", r.chip.name},
                                     {"m", r.shape.m},
                                     {"n", r.shape.n},
                                     {"k", r.shape.k},
                                     {"dtype", models::dtype_name(r.shape.dtype)},
                                     {"time_s", r.time_s},
                                     {"tflops", r.tflops},
                                     {"utilization", r.utilization},
                                     {"peak_tflops", r.peak / 1e12},
                                     {"cost_model_time_s", r.kernel.cost.time_s},
                                     {"tensor_cycles", json_count(r.kernel.cost.cycles)},
                                     {"matmul_instructions", r.kernel.cost.matmul_instructions},
                                     {"dma_bytes", json_count(r.kernel.dma_bytes)}};
  return stamped(Document::BenchMatmul, r.inputs_hash, js);
}

double parse_hbm(const HbmOptions& o) { return parse_size(o.bytes, "--bytes"); }

HbmResult run_hbm(const HbmOptions& o) {
  HbmResult r;
  r.bytes = parse_hbm(o);
  r.cores = o.cores;
  r.chip = models::load_chip(o.chip, o.sets);
  if (o.cores < 1 || o.cores > r.chip.cores.physical)
    throw sim::ConfigError(sim::Location{"--cores", 0, 0}, "",
                           "expected 1 to " + std::to_string(r.chip.cores.physical) + " cores on " + r.chip.name +
                               ", got " + std::to_string(o.cores));
  auto sys = std::make_unique<hw::System>("system", models::single_chip_system(r.chip), 1);
  std::vector<hw::NeuronCore*> cores;
  for (int i = 0; i < o.cores; ++i) cores.push_back(&sys->add_core(0, i, models::lower_hbm_stream(r.chip, r.bytes)));
  sim::run_to_completion();
  for (auto* c : cores) r.time_s = std::max(r.time_s, c->finish_time());
  r.bandwidth = r.bytes * o.cores / r.time_s;
  char bytes[32];
  std::snprintf(bytes, sizeof bytes, "%.17g", r.bytes);
  r.inputs_hash = inputs_hash("command: bench hbm\ncores: " + std::to_string(o.cores) + "\nbytes_per_core: " + bytes +
                              "\nchip:\n" + models::resolved_yaml(r.chip, ""));
  return r;
}

void write_hbm_text(const HbmResult& r, FILE* out) {
  const auto& chip = r.chip;
  const double one_core = chip.dma.core_bandwidth();
  const double stack = models::hbm_stack_bandwidth(chip.hbm);
  std::fprintf(out, "%s, %d NeuronCore(s) each reading %s from HBM\n", chip.name.c_str(), r.cores,
               sim::format_quantity(r.bytes, sim::Dim::Bytes).c_str());
  std::fprintf(out, "  time            : %.2f us\n", r.time_s * 1e6);
  std::fprintf(out, "  bandwidth       : %s (%.1f%% of the chip's %s HBM)\n",
               sim::format_quantity(r.bandwidth, sim::Dim::Bandwidth).c_str(), 100 * r.bandwidth / chip.hbm.bandwidth.v,
               sim::format_quantity(chip.hbm.bandwidth.v, sim::Dim::Bandwidth).c_str());
  std::fprintf(out, "  limits          : one core's DMA %s; one stack %s shared by %d cores\n",
               sim::format_quantity(one_core, sim::Dim::Bandwidth).c_str(),
               sim::format_quantity(stack, sim::Dim::Bandwidth).c_str(), chip.cores_per_stack());
}

nlohmann::ordered_json hbm_json(const HbmResult& r) {
  const nlohmann::ordered_json js = {{"chip", r.chip.name},
                                     {"time_s", r.time_s},
                                     {"bandwidth_Bps", r.bandwidth},
                                     {"cores", r.cores},
                                     {"bytes_per_core", json_count(r.bytes)}};
  return stamped(Document::BenchHbm, r.inputs_hash, js);
}

std::string run_show(const ShowOptions& o) {
  // Resolve the name here so that errors name "show system"/"show chip", not an option
  // this command does not have.
  const std::string& kind = sim::word_of(o.kind);
  std::string path =
      sim::resolve_named_config(o.name, "hw/configs/" + kind + "s", kind, sim::Location{"show " + kind, 0, 0});
  if (o.kind == ShowKind::System) {
    auto s = models::load_system(path, o.sets, 0);
    return models::resolved_yaml(s, "# resolved system " + s.name + "\n");
  }
  auto c = models::load_chip(path, o.sets);
  return models::resolved_yaml(c, "# resolved chip " + c.name + "\n");
}

}  // namespace trn::app
