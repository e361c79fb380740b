// Google Benchmark: simulator speed. Each benchmark runs one simulation per iteration in
// a forked child (SystemC allows one elaboration per process) and reports wall time and
// events per second.
#include <benchmark/benchmark.h>
int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  return 0;
}
