// ChipSpec: one Trainium chip generation (trn1, trn2, trn3) as data. Loaded from
// hw/configs/chips/*.yaml; every figure there cites its source or is marked an assumption.
// The field list in each visit() drives loading, the resolved dump and the config reference.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sim/base/config_reader.h"
#include "sim/base/units.h"

namespace trn::models {

using sim::F;

struct CoreSpec {
  int physical = 8;                // physical NeuronCores per chip
  std::vector<int64_t> lnc_modes;  // supported logical-core sizes (physical cores per logical core)
  int default_lnc = 1;
  template <class V>
  void visit(V& v) {
    v.field("physical", physical, F("physical NeuronCores per chip").ge(1).le(64));
    v.field("lnc_modes", lnc_modes, F("logical NeuronCore sizes supported").ge(1).le(8));
    v.field("default_lnc", default_lnc, F("default logical NeuronCore size").ge(1).le(8));
  }
};

struct TensorEngineSpec {
  int rows = 128;  // contraction lanes (SBUF partitions)
  int cols = 128;  // PE columns (stationary free size M)
  sim::Frequency clock{2.4e9};
  int moving_free_max = 512;        // N per MultiplyMoving (one fp32 PSUM bank)
  int mm_init_latency_cycles = 64;  // MM initiation interval floor
  int issue_overhead_cycles = 0;    // per instruction dispatch gap (assumption)
  int load_stationary_speedup = 4;  // LoadStationary vs MultiplyMoving speed
  int fp32_slowdown = 4;            // fp32 inputs take 4x the cycles
  bool fp8_double_row = false;      // trn2/trn3: K=256 per FP8 instruction
  int mx_pairs_per_pe = 1;          // trn3 MX: 4 pairs per PE per cycle
  sim::Time throttle_window{3e-6};  // dI/dt ramp window
  double throttle_fraction = 1.0;   // throughput during the ramp
  template <class V>
  void visit(V& v) {
    v.field("rows", rows, F("systolic array rows (contraction dim, SBUF partitions)").ge(1).le(1024));
    v.field("cols", cols, F("systolic array columns (stationary free size)").ge(1).le(1024));
    v.field("clock", clock, F("tensor engine clock").gt(0));
    v.field("moving_free_max", moving_free_max, F("max moving free size N per instruction").ge(1));
    v.field("mm_init_latency_cycles", mm_init_latency_cycles, F("MultiplyMoving initiation floor, cycles").ge(0));
    v.field("issue_overhead_cycles", issue_overhead_cycles, F("per-instruction issue gap, cycles").ge(0));
    v.field("load_stationary_speedup", load_stationary_speedup,
            F("LoadStationary speed relative to MultiplyMoving").ge(1));
    v.field("fp32_slowdown", fp32_slowdown, F("cycle multiplier for fp32 inputs").ge(1));
    v.field("fp8_double_row", fp8_double_row, F("FP8 double-row mode (K=2x rows per instruction)"));
    v.field("mx_pairs_per_pe", mx_pairs_per_pe, F("MX (MXFP8/MXFP4) multiply pairs per PE per cycle").ge(1).le(8));
    v.field("throttle_window", throttle_window, F("dI/dt ramp window after idle").ge(0));
    v.field("throttle_fraction", throttle_fraction, F("throughput fraction during the ramp").gt(0).le(1));
  }
};

/// Vector, scalar and GpSimd engines: elements per cycle plus a fixed overhead.
struct StreamEngineSpec {
  sim::Frequency clock{1e9};
  int elems_per_cycle = 128;            // typical elementwise rate (one per partition lane)
  int elems_per_cycle_fast = 128;       // 16-bit copy-like ops ("performance mode")
  int fixed_overhead_cycles = 64;       // static instruction overhead
  int mx_quantize_elems_per_cycle = 0;  // MX quantisation (data + block scales); 0 = no such instruction
  template <class V>
  void visit(V& v) {
    v.field("clock", clock, F("engine clock").gt(0));
    v.field("elems_per_cycle", elems_per_cycle, F("elements per cycle, typical op").ge(1));
    v.field("elems_per_cycle_fast", elems_per_cycle_fast, F("elements per cycle, 16-bit copy-like op").ge(1));
    v.field("fixed_overhead_cycles", fixed_overhead_cycles, F("fixed cycles per instruction").ge(0));
    v.field("mx_quantize_elems_per_cycle", mx_quantize_elems_per_cycle,
            F("elements per cycle of the MX quantise instruction (MXFP8 data and per-block scales); 0 = none")
                .ge(0)
                .optional());
  }
};

struct MemorySpec {  // SBUF or PSUM
  int partitions = 128;
  sim::Bytes bytes_per_partition{0};
  int banks = 1;
  template <class V>
  void visit(V& v) {
    v.field("partitions", partitions, F("partitions").ge(1));
    v.field("bytes_per_partition", bytes_per_partition, F("capacity per partition").gt(0));
    v.field("banks", banks, F("banks").ge(1));
  }
  double total_bytes() const { return bytes_per_partition.v * partitions; }
};

struct DmaSpec {
  int engines_per_core = 16;
  sim::Bandwidth engine_bandwidth{27.2e9};
  sim::Time fixed_latency{1.3e-6};       // semaphore-to-start per transfer
  sim::Time descriptor_latency{0.6e-6};  // hardware DGE per instruction
  template <class V>
  void visit(V& v) {
    v.field("engines_per_core", engines_per_core, F("DMA engines per physical NeuronCore").ge(1));
    v.field("engine_bandwidth", engine_bandwidth, F("bandwidth of one DMA engine").gt(0));
    v.field("fixed_latency", fixed_latency, F("fixed cost per DMA transfer").ge(0));
    v.field("descriptor_latency", descriptor_latency, F("descriptor generation per DMA instruction").ge(0));
  }
  double core_bandwidth() const { return engines_per_core * engine_bandwidth.v; }
};

struct HbmSpec {
  int stacks = 4;
  sim::Bytes capacity{0};
  sim::Bandwidth bandwidth{0};  // chip total
  template <class V>
  void visit(V& v) {
    v.field("stacks", stacks, F("HBM stacks per chip").ge(1));
    v.field("capacity", capacity, F("HBM capacity per chip").gt(0));
    v.field("bandwidth", bandwidth, F("HBM bandwidth per chip (all stacks)").gt(0));
  }
};

struct NeuronLinkSpec {
  std::string version;
  int ports = 4;
  sim::Bandwidth bandwidth_per_chip{0};
  sim::Time hop_latency{1.5e-6};
  template <class V>
  void visit(V& v) {
    v.field("version", version, F("NeuronLink generation"));
    v.field("ports", ports, F("NeuronLink ports per chip").ge(1));
    v.field("bandwidth_per_chip", bandwidth_per_chip, F("NeuronLink bandwidth per chip").gt(0));
    v.field("hop_latency", hop_latency, F("per-hop latency").ge(0));
  }
};

/// The intra-instance algorithm of large collectives (collectives.large_message_algorithm).
enum class LargeMessageAlgorithm { Ring, KangaRing };
inline const std::vector<std::string>& enum_words(LargeMessageAlgorithm) {
  static const std::vector<std::string> w{"ring", "kangaring"};
  return w;
}

struct CollectiveSpec {
  int cc_cores = 16;
  double reduce_rate = 1.0;          // reduction throughput as a fraction of DMA rate
  int dma_engines_per_core = 3;      // DMA engines the CC-cores drive per physical core
  sim::Time launch_overhead{50e-6};  // runtime cost to start one collective
  LargeMessageAlgorithm large_message_algorithm = LargeMessageAlgorithm::Ring;  // intra-instance, above 56 MB
  std::string sdk;                   // Neuron SDK release of the runtime ("" = current; docs/model.md 8.7)
  double legacy_ring_dma_share = 1;  // share of the collective DMA rate an older runtime's all-reduce ring reaches
  template <class V>
  void visit(V& v) {
    v.field("cc_cores", cc_cores, F("collective-communication cores per chip").ge(1));
    v.field("reduce_rate", reduce_rate, F("DMA reduction throughput / copy throughput").gt(0).le(1));
    v.field("dma_engines_per_core", dma_engines_per_core,
            F("DMA engines driven by collectives per physical core (calibrated)").ge(1));
    v.field("launch_overhead", launch_overhead, F("fixed cost of one collective operation (calibrated)").ge(0));
    v.field("large_message_algorithm", large_message_algorithm, F("intra-instance algorithm above 56 MB"));
    v.field(
        "sdk", sdk,
        F("Neuron SDK release whose runtime runs the collectives, e.g. 2.6 (empty: the current runtime)").optional());
    v.field("legacy_ring_dma_share", legacy_ring_dma_share,
            F("share of the collective DMA rate the all-reduce ring of a runtime before SDK 2.21 reaches")
                .gt(0)
                .le(1)
                .optional());
  }
};

// Published chip peaks. Reporting (MFU, roofline) uses them; the cost models derive their own
// rates from the tensor engine's shape, and a chip offers `precision.compute: fp8` / `mxfp8`
// only when it publishes that rate (0 = not available).
struct PeakSpec {
  sim::FlopRate bf16{0};
  sim::FlopRate fp8{0};
  sim::FlopRate mxfp8{0};
  sim::FlopRate fp32{0};
  template <class V>
  void visit(V& v) {
    v.field("bf16", bf16, F("published dense BF16 peak per chip").gt(0));
    v.field("fp8", fp8, F("published dense FP8 peak per chip; 0 = no FP8 compute").ge(0).optional());
    v.field("mxfp8", mxfp8, F("published dense MXFP8 peak per chip; 0 = no MX compute").ge(0).optional());
    v.field("fp32", fp32, F("published dense FP32 peak per chip").gt(0));
  }
};

struct ChipSpec {
  std::string name;
  std::string core_version;
  CoreSpec cores;
  TensorEngineSpec tensor;
  StreamEngineSpec vector, scalar, gpsimd;
  MemorySpec sbuf, psum;
  DmaSpec dma;
  HbmSpec hbm;
  NeuronLinkSpec neuronlink;
  CollectiveSpec collectives;
  PeakSpec peak;

  template <class V>
  void visit(V& v) {
    v.field("name", name, F("chip name"));
    v.field("core_version", core_version, F("NeuronCore generation"));
    v.section("cores", cores, F("NeuronCores"));
    v.section("tensor", tensor, F("tensor engine"));
    v.section("vector", vector, F("vector engine"));
    v.section("scalar", scalar, F("scalar engine"));
    v.section("gpsimd", gpsimd, F("GpSimd engine"));
    v.section("sbuf", sbuf, F("state buffer (SBUF)"));
    v.section("psum", psum, F("partial-sum buffer (PSUM)"));
    v.section("dma", dma, F("DMA engines"));
    v.section("hbm", hbm, F("HBM"));
    v.section("neuronlink", neuronlink, F("NeuronLink"));
    v.section("collectives", collectives, F("collective engines"));
    v.section("peak", peak, F("published peaks"));
  }
  /// Cross-field checks (e.g. default_lnc among lnc_modes, cores divisible by stacks). Errors
  /// point at the key in `where`, the document holding this chip under `prefix` ("" for a
  /// chip file, "chip." in a system, "system.chip." in a scenario).
  void validate(const sim::ConfigNode& where, const std::string& prefix = "") const;
  int cores_per_stack() const { return cores.physical / hbm.stacks; }
};

}  // namespace trn::models
